import { expect, it } from 'vitest'
import { createMemoryStore } from '../../storage/memory-store'
import { createEngine } from '../engine'

/**
 * A large import is checked and restored a piece at a time: timers set before it fire while it
 * runs, so that other requests are answered meanwhile, and it still lands whole.
 */
it('gives the event loop turns while a 10 MB import is checked and restored', async () => {
  const engine = createEngine({ store: createMemoryStore() })
  const snapshot = await engine.account.exportSnapshot()
  const keyv = Array.from({ length: 10_000 }, (_, i) => ({
    bucket: 'b',
    key: `k${String(i).padStart(5, '0')}`,
    value: 'x'.repeat(1000),
  }))
  const value = JSON.parse(JSON.stringify({ ...snapshot, keyv })) as unknown
  let ticks = 0
  const timer = setInterval(() => ticks++, 0)
  try {
    await engine.account.importSnapshot(value)
  } finally {
    clearInterval(timer)
  }
  // In one piece, no timer could fire until the import ended.
  expect(ticks).toBeGreaterThan(1)
  expect(await engine.account.listBuckets()).toEqual([{ bucket: 'b', keys: 10_000 }])
  const back = await engine.account.exportSnapshot()
  expect(back.keyv[9_999]).toEqual(keyv[9_999])
}, 60_000)
