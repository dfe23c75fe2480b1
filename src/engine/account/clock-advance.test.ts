import { describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../storage/memory-store'
import { createManualClock } from '../clock'
import { createAccount } from './account'

describe('advancing the clock of one account through several engines at once', () => {
  it('counts every advance: each is added to the offset as stored', async () => {
    const store = createMemoryStore()
    const clocks = [createManualClock(), createManualClock(), createManualClock()]
    const [first, second, third] = clocks.map((clock) => createAccount(store, clock, 'service'))
    const start = clocks[0]!.now() / 1000
    await Promise.all([
      first!.advanceClock(60),
      second!.advanceClock(3_600),
      first!.advanceClock(1),
    ])
    for (const account of [first!, second!, third!]) {
      expect((await account.now()) - start).toBe(3_661)
    }
    expect(await store.getMeta('clockOffset')).toBe(3_661_000)
  })

  it('refuses, with what is left, an advance past the bound, from the offset as stored', async () => {
    const store = createMemoryStore()
    const [first, second] = [createManualClock(), createManualClock()].map((clock) =>
      createAccount(store, clock, 'service'),
    )
    const century = 100 * 365 * 24 * 3600
    await first!.advanceClock(century - 10)
    await expect(second!.advanceClock(11)).rejects.toThrow(/at most 10 more$/)
    await second!.advanceClock(10)
    expect(await store.getMeta('clockOffset')).toBe(century * 1000)
  })
})
