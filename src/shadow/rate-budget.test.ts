import { describe, expect, it } from 'vitest'
import { RateBudget, readRateLimit, retryAfterSeconds } from './rate-budget'

describe('the rate budget', () => {
  it('reads x-rate-limit and retry-after as the service sends them', () => {
    expect(readRateLimit('20;window=60')).toEqual({ limit: 20, windowSeconds: 60 })
    expect(readRateLimit(' 100 ; window = 3600 ')).toEqual({ limit: 100, windowSeconds: 3600 })
    expect(readRateLimit('50')).toEqual({ limit: 50, windowSeconds: 60 })
    expect([readRateLimit('many'), readRateLimit(undefined), readRateLimit('0;window=60')]).toEqual(
      [undefined, undefined, undefined],
    )
    const now = Date.UTC(2030, 0, 1)
    expect(retryAfterSeconds('7', now)).toBe(7)
    expect(retryAfterSeconds(new Date(now + 30_000).toUTCString(), now)).toBe(30)
    expect(retryAfterSeconds('soon', now)).toBeUndefined()
  })

  it('asks again within half the window’s limit, counting the client’s calls, the free tier until told', () => {
    let now = 0
    const budget = new RateBudget(() => now)
    // 20 a minute assumed: the shadow's own calls stay within 10, the client's counted.
    for (let i = 0; i < 9; i++) budget.sending()
    expect(budget.mayAskAgain()).toBe(true)
    budget.sending()
    expect(budget.mayAskAgain()).toBe(false)
    now += 60_001
    expect(budget.mayAskAgain()).toBe(true)
    budget.answered(200, { 'x-rate-limit': '4;window=10' })
    budget.sending()
    expect(budget.mayAskAgain()).toBe(true)
    budget.sending()
    expect(budget.mayAskAgain()).toBe(false)
  })

  it('asks nothing while a 429’s retry-after runs', () => {
    let now = 0
    const budget = new RateBudget(() => now)
    budget.answered(200, { 'x-rate-limit': '1000;window=60' })
    budget.answered(429, { 'retry-after': '5' })
    expect(budget.mayAskAgain()).toBe(false)
    now += 4_999
    expect(budget.mayAskAgain()).toBe(false)
    now += 2
    expect(budget.mayAskAgain()).toBe(true)
  })

  it('paced, asks again whatever was sent, but not while a retry-after runs', () => {
    let now = 0
    const budget = new RateBudget(() => now, true)
    for (let i = 0; i < 40; i++) budget.sending()
    expect(budget.mayAskAgain()).toBe(true)
    budget.answered(429, { 'retry-after': '5' })
    expect(budget.mayAskAgain()).toBe(false)
    now += 5_001
    expect(budget.mayAskAgain()).toBe(true)
  })
})
