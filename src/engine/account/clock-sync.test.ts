import { describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../storage/memory-store'
import { createManualClock } from '../clock'
import { createAccount } from './account'

/** Two engines over one store, as two tabs of the playground share one IndexedDB database. */
function twoTabs() {
  const store = createMemoryStore()
  const [firstClock, secondClock] = [createManualClock(), createManualClock()]
  return {
    first: createAccount(store, firstClock, 'service'),
    second: createAccount(store, secondClock, 'service'),
    secondClock,
    start: firstClock.now() / 1000,
  }
}

describe('the clock of several engines over one account', () => {
  it('follows another engine forward, and back to real time after its reset', async () => {
    const { first, second, start } = twoTabs()
    await first.advanceClock(86_400)
    expect((await second.now()) - start).toBe(86_400)

    await first.reset()
    expect((await second.now()) - start).toBe(0)
    // Its next move starts from there: it does not bring the day back.
    await second.advanceClock(60)
    expect((await first.now()) - start).toBe(60)
  })

  it('follows an import that moves the clock back', async () => {
    const { first, second, start } = twoTabs()
    await first.advanceClock(3_600)
    const snapshot = await first.exportSnapshot()
    await first.advanceClock(86_400)
    expect((await second.now()) - start).toBe(90_000)
    await second.importSnapshot(snapshot)
    expect((await first.now()) - start).toBe(3_600)
    expect((await second.now()) - start).toBe(3_600)
  })

  it('keeps what was moved on the clock itself, never behind real time', async () => {
    const { first, second, secondClock, start } = twoTabs()
    secondClock.advance(30_000)
    await first.advanceClock(100)
    expect((await second.now()) - start).toBe(130)
    await first.reset()
    expect((await second.now()) - start).toBe(30)
  })
})
