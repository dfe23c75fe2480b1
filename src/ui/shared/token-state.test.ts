import { describe, expect, it } from 'vitest'
import type { TokenReport } from '../../engine'
import { liveStatus } from './token-state'

const report = (expiresAt: number | null, secretExpiresAt: number | null): TokenReport => ({
  state: 'usable',
  details: {
    kind: 'authorization',
    secretId: 'sec_1',
    abilities: ['core'],
    createdAt: 0,
    expiresAt,
    secretExpiresAt,
  },
})

describe('the live state of a token', () => {
  it('names the first cause in time: expired before its secret rolled is expired', () => {
    // Expires at 600, its secret rolls at 3600; at 4000 both have come.
    const status = liveStatus(report(600, 3600), 4000)
    expect(status.state).toBe('expired')
    expect(status.headline).toMatch(/^expired at 1970-01-01 00:10:00 UTC$/)
    expect(status.detail).toMatch(/was rolled after, at 1970-01-01 01:00:00 UTC/)
    // Its secret rolled first, its expiry later: dead with its secret, before and after.
    expect(liveStatus(report(7200, 3600), 4000).state).toBe('dead')
    expect(liveStatus(report(7200, 3600), 8000).state).toBe('dead')
  })

  it('says a usable token expires before its secret rolls, without "it dies then"', () => {
    expect(liveStatus(report(600, 3600), 10).detail).toMatch(
      /; its secret sec_1 rolls later, at 1970-01-01 01:00:00 UTC\.$/,
    )
    expect(liveStatus(report(7200, 3600), 10).detail).toMatch(/, and it dies then\.$/)
  })
})
