import { encode } from '@msgpack/msgpack'
import { describe, expect, it } from 'vitest'
import { decodeMsgpack } from '../engine/wire/msgpack'
import { Twins } from './twins'

const UPSTREAM = 'upstream-token.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
const ENGINE = 'engine-token-which-is-longer.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB'

describe('Twins', () => {
  it('gives both twins one role, the first secret `secret`, then by kind', () => {
    const twins = new Twins()
    expect(twins.pair('upstream-secret-1', 'mirror-secret-1', 'secret')).toBe('secret')
    expect(twins.pair(UPSTREAM, ENGINE, 'auth')).toBe('auth1')
    expect(twins.pair('upstream-secret-2', 'mirror-secret-2', 'secret')).toBe('secret2')
    expect([twins.roleOf(UPSTREAM), twins.roleOf(ENGINE), twins.engineOf(UPSTREAM)]).toEqual([
      'auth1',
      'auth1',
      ENGINE,
    ])
    // A cursor met again keeps its role.
    expect(twins.pair('cursor-upstream-1', 'cursor-engine-1', 'cursor')).toBe('cursor1')
    expect(twins.pair('cursor-upstream-1', 'cursor-engine-2', 'cursor')).toBe('cursor1')
  })

  it('swaps upstream values for their twins in text, a query string and MessagePack', () => {
    const twins = new Twins()
    twins.pair(UPSTREAM, ENGINE, 'auth')
    expect(twins.swapText(`[["$$","token","${UPSTREAM}"]]`)).toBe(`[["$$","token","${ENGINE}"]]`)
    expect(twins.swapQuery(`?bucket=notes&cursor=${UPSTREAM}&a=b%20c`)).toBe(
      `?bucket=notes&cursor=${ENGINE}&a=b%20c`,
    )
    const packed = encode([
      ['>>', UPSTREAM],
      ['$$', 'other', 'kept'],
    ])
    expect(decodeMsgpack(twins.swapMsgpack(packed))).toEqual([
      ['>>', ENGINE],
      ['$$', 'other', 'kept'],
    ])
    // A body without one comes back as it was.
    const plain = encode([['>>', 'nothing here']])
    expect(twins.swapMsgpack(plain)).toBe(plain)
  })

  it('shows every known value as its role, whole or inside a text, and nothing else', () => {
    const twins = new Twins()
    twins.pair('upstream-secret-1', 'mirror-secret-1', 'secret')
    twins.pair(UPSTREAM, ENGINE, 'auth')
    expect(twins.oneSided('a-token-made-before', 'token')).toBe('token1')
    expect(twins.oneSided('short', 'token')).toBeUndefined()
    expect(twins.normalize({ a: [UPSTREAM, `Bearer ${ENGINE}`], b: 'short text' })).toEqual({
      a: ['$auth1', 'Bearer $auth1'],
      b: 'short text',
    })
    expect(
      twins.redact(`authorization: Bearer upstream-secret-1; x${UPSTREAM}x; a-token-made-before`),
    ).toBe('authorization: Bearer $secret; x$auth1x; $token1')
  })

  it('hides any start of a known value, six characters or more: a value a shortened body cut', () => {
    const twins = new Twins()
    const secret = 'sk_Zq7Hm2WdX9pLr4TbN8cVy3Kf'
    twins.pair(secret, 'Pj4kLq9mWx2Rz7TbN8cVy3Kf0a', 'secret')
    expect(twins.oneSided(UPSTREAM, 'auth')).toBe('auth1')
    // Cut by a report's body, in a query, after a bearer, in JSON, in any run of value characters.
    expect(twins.redact(`aaaa ${secret.slice(0, 10)}… (5000 bytes)`)).toBe(
      'aaaa $secret… (5000 bytes)',
    )
    expect(twins.redact(`?cursor=${secret.slice(0, 6)}&b=c`)).toBe('?cursor=$secret&b=c')
    expect(twins.redact(`Bearer Pj4kLq9`)).toBe('Bearer $secret')
    expect(twins.redact(`["<<","${UPSTREAM.slice(0, 20)}`)).toBe('["<<","$auth1')
    expect(twins.redact(`x-${UPSTREAM.slice(0, 8)}`)).toBe('x-$auth1')
    // Five characters say nothing; a role already written is left as it is; nor inside a word.
    expect(twins.redact(`${secret.slice(0, 5)} $secret abc${secret.slice(0, 8)}`)).toBe(
      `${secret.slice(0, 5)} $secret abc${secret.slice(0, 8)}`,
    )
  })

  it('remembers which exchange made a value only one side made', () => {
    const twins = new Twins()
    const role = twins.oneSided(UPSTREAM, 'auth', 7)!
    expect([role, twins.originOf(role), twins.engineOf(UPSTREAM)]).toEqual(['auth1', 7, undefined])
  })
})
