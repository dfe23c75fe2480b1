import { describe, expect, it } from 'vitest'
import type { TokenChoice } from '../shared/tokens'
import { MAX_WATCH_LABEL, watchLabel } from './watches-api'

const authorization = (abilities: string[]): TokenChoice =>
  ({
    id: 'authorization:x',
    kind: 'authorization',
    token: 'x',
    label: '',
    state: 'usable',
    stateText: 'usable',
    report: { details: { abilities } },
  }) as unknown as TokenChoice

describe('watchLabel', () => {
  it('names a secret by its id and an authorization by its abilities', () => {
    expect(watchLabel({ id: 'secret:sec_1', kind: 'secret' } as TokenChoice)).toBe('secret sec_1')
    expect(watchLabel(authorization(['core.ping', 'keyv.get?bucket=a']))).toBe(
      'the authorization [core.ping, keyv.get?bucket=a]',
    )
  })

  it('cuts a long list at a whole ability, within what the engine keeps', () => {
    const abilities = Array.from(
      { length: 12 },
      (_, i) => `keyv.get?bucket=orders-${i}&prefix=2026%2F`,
    )
    const label = watchLabel(authorization(abilities))
    expect(label.length).toBeLessThanOrEqual(MAX_WATCH_LABEL)
    expect(label).toMatch(
      /^the authorization \[keyv\.get\?bucket=orders-0&prefix=2026%2F, .*2026%2F, and \d+ more\]$/,
    )
    const [, more] = /and (\d+) more\]$/.exec(label)!
    expect(label.split(', keyv.get').length + Number(more)).toBe(12)
    // One ability longer than a label: none shown, the count kept.
    expect(watchLabel(authorization([`lib.${'a'.repeat(300)}`]))).toBe(
      'the authorization [and 1 more]',
    )
  })
})
