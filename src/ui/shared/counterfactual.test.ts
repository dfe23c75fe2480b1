import { describe, expect, it } from 'vitest'
import type { Counterfactual } from '../../engine'
import { fixParams, type RefusedToken } from './counterfactual'

const token: RefusedToken = {
  kind: 'authorization',
  reason: null,
  abilities: ['keyv.get?bucket=users&prefix=alice/', 'core.ping'],
  insecure: false,
  createdAt: 1_000,
  expiresAt: 1_600,
  secretId: 'sec_1',
}

const widen: Counterfactual = {
  code: 'outside_limit',
  change: 'widen_limit',
  from: 'keyv.get?bucket=users&prefix=alice/',
  to: 'keyv.get?bucket=users',
  ability: 'keyv.get?bucket=users&prefix=bob/1',
  sentence: '',
}

describe('a fix, composed from the refused token', () => {
  it('keeps its other abilities, its expiry and its secret, with only the change made', () => {
    const params = fixParams(widen, token, 1_200)!
    expect(params.getAll('ability')).toEqual(['keyv.get?bucket=users', 'core.ping'])
    expect(params.get('expiry')).toBe('1970-01-01T00:26:40')
    expect(params.get('ttl')).toBeNull()
    expect(params.get('signer')).toBe('secret:sec_1')
    expect(params.get('insecure')).toBeNull()
    expect(params.get('from')).toBe('refused')
    expect(params.getAll('was')).toEqual(token.abilities)
  })

  it('gives an expired token its lifetime again from now, and every further change it needs', () => {
    const expired: Counterfactual = {
      code: 'expired',
      change: 'use_before',
      before: 1_600,
      sentence: '',
      also: [
        {
          code: 'missing_ability',
          change: 'add_ability',
          ability: 'auth.create',
          insecure: true,
          sentence: '',
        },
      ],
    }
    const params = fixParams(expired, { ...token, reason: 'expired' }, 2_000)!
    expect(params.getAll('ability')).toEqual([...token.abilities!, 'auth.create'])
    expect(params.get('ttl')).toBe('600')
    expect(params.get('expiry')).toBeNull()
    expect(params.get('insecure')).toBe('true')
  })

  it('signs the fix of a token that expired, its secret rolled since, with a live secret', () => {
    // The story: a ttl of 600 s, expired at 1,600, its secret rolled at 4,600; the call
    // at 5,000 is refused as expired, and the engine says a token minted again needs both.
    const expired: Counterfactual = {
      code: 'expired',
      change: 'use_before',
      before: 1_600,
      remint: { liveSecret: true, laterExpiry: true },
      sentence: '',
    }
    const dead = { ...token, reason: 'expired', secretExpiresAt: 4_600 }
    const params = fixParams(expired, dead, 5_000)!
    expect(params.getAll('ability')).toEqual(token.abilities)
    expect(params.get('ttl')).toBe('600')
    // Its own secret would refuse to sign: the composer takes its first live secret.
    expect(params.get('signer')).toBeNull()
    // A missing ability, the token alive but its secret rolled by the time the fix is made.
    const missing: Counterfactual = {
      code: 'missing_ability',
      change: 'add_ability',
      ability: 'keyv.set',
      sentence: '',
    }
    const live = { ...token, secretExpiresAt: 1_500 }
    expect(fixParams(missing, live, 1_400)!.get('signer')).toBe('secret:sec_1')
    expect(fixParams(missing, live, 1_500)!.get('signer')).toBeNull()
  })

  it('mints a dead token again as it was, and has nothing to compose for a change no token holds', () => {
    const again = fixParams(
      { code: 'expired', change: 'use_before', before: 1_600, sentence: '' },
      { ...token, reason: 'expired' },
      2_000,
    )!
    expect(again.getAll('ability')).toEqual(token.abilities)
    expect(again.get('ttl')).toBe('600')
    const rolled = fixParams(
      { code: 'secret_rolled', change: 'use_before', before: 1_500, sentence: '' },
      { ...token, reason: 'secret_rolled' },
      2_000,
    )!
    expect(rolled.get('signer')).toBeNull()
    expect(fixParams({ code: 'invalid', change: 'fix_request', sentence: '' }, token, 0)).toBe(
      undefined,
    )
  })
})
