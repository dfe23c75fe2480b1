import { describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../storage/memory-store'
import { createHarness, type Harness } from '../../testing/engine-harness'
import type { Store } from '../store'

const timer = () => new Promise((resolve) => setTimeout(resolve, 1))

/** A memory store whose every read and commit waits for a timer, so that requests overlap. */
function slowStore(): Store {
  const store = createMemoryStore()
  return {
    ...store,
    getKey: async (bucket, key) => (await timer(), store.getKey(bucket, key)),
    commit: async (mutations) => (await timer(), store.commit(mutations)),
  }
}

/** One request writing two keys the same value: applied whole, they always read alike. */
const setBoth = (h: Harness, value: number) =>
  h.tuples('core.exec', [
    [
      '$$',
      'proc',
      [
        '{}',
        ['()', 'keyv.set', ['$$', 'bucket', 'r'], ['$$', 'key', 'x'], ['$$', 'value', value]],
        // Its own input (the key) wins over what the first call's answer pipes into it.
        ['()', 'keyv.set', ['>>', 'y'], ['$$', 'bucket', 'r'], ['$$', 'value', value]],
      ],
    ],
  ])

const read = async (h: Harness, key: string) =>
  (await h.call('keyv.get', { query: { bucket: 'r', key }, accept: 'application/json' })).json()

describe('a rewind with requests in flight', () => {
  it('lets them finish first, holds those that come after it, and never leaves half of one', async () => {
    const h = await createHarness({ store: slowStore(), exchangeLog: 1000 })
    for (let i = 1; i <= 3; i++) expect((await setBoth(h, i)).status).toBe(200)
    const exchanges = async () =>
      ((await h.control('exchanges')).body as { exchanges: Array<{ id: number }> }).exchanges
    const target = (await exchanges()).find((e) => e.id === 2)!.id
    const done: string[] = []
    const before = Array.from({ length: 40 }, (_, i) =>
      setBoth(h, 100 + i).then((answer) => (done.push(`request ${i}`), answer)),
    )
    // Sent while the 40 are in flight: it waits for them, and then goes back before exchange 2.
    await timer()
    const rewind = h.control('rewind', { before: target }).then((answer) => {
      done.push('rewind')
      return answer
    })
    await timer()
    const after = Array.from({ length: 10 }, (_, i) => setBoth(h, 200 + i))
    const answers = await Promise.all([...before, ...after])
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200))
    expect((await rewind).status).toBe(200)
    // Every request sent before it was answered before the rewind was.
    expect(done.indexOf('rewind')).toBe(40)
    const x = await read(h, 'x')
    expect(await read(h, 'y')).toBe(x)
    expect(x).toBeGreaterThanOrEqual(200)
    // The new branch holds exchange 1, then the ten sent after the rewind (and the two reads).
    const kept = await exchanges()
    expect(kept.length).toBe(1 + 10 + 2)
    expect(kept.at(-1)!.id).toBe(1)
  })
})
