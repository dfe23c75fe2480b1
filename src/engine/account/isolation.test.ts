import { describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../storage/memory-store'
import { createHarness } from '../../testing/engine-harness'
import { INCREMENT } from '../../testing/increment'
import type { Store } from '../store'

const timer = () => new Promise((resolve) => setTimeout(resolve, 1))

/**
 * A memory store whose every key read and commit waits for a timer first, as a database's
 * round trips do: other requests come in between a request's read and its commit.
 */
function slowStore(): Store {
  const store = createMemoryStore()
  return {
    ...store,
    getKey: async (bucket, key) => (await timer(), store.getKey(bucket, key)),
    commit: async (mutations) => (await timer(), store.commit(mutations)),
  }
}

const get = (key: string) => ['()', 'keyv.get', ['$$', 'key', key]]
const set = (key: string, value: unknown) => ['()', 'keyv.set', ['>>', key], ['$$', 'value', value]]

describe("one request's reads and writes, isolated from every other's", () => {
  it('300 get → add → set at once end at 300', async () => {
    const h = await createHarness()
    await h.tuples('keyv.set', [
      ['$$', 'key', 'n'],
      ['$$', 'value', 0],
    ])
    const answers = await Promise.all(
      Array.from({ length: 300 }, () => h.tuples('keyv.set', INCREMENT)),
    )
    expect(answers.filter(({ status }) => status !== 200)).toEqual([])
    expect((await h.tuples('keyv.get', [['$$', 'key', 'n']])).json()).toEqual([['<<', 300]])
    // 300 commits one after another: over IndexedDB, seconds on a loaded machine.
  }, 30_000)

  it('hold when every read lets other requests in: 60 increments end at 60', async () => {
    const h = await createHarness({ store: slowStore() })
    await h.tuples('keyv.set', [
      ['$$', 'key', 'n'],
      ['$$', 'value', 0],
    ])
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => h.tuples('keyv.set', INCREMENT)),
    )
    expect(answers.map(({ status }) => status)).toEqual(Array(60).fill(200))
    expect((await h.tuples('keyv.get', [['$$', 'key', 'n']])).json()).toEqual([['<<', 60]])
  }, 30_000)

  it('let a request that reads twice see one moment, never half of another request', async () => {
    const h = await createHarness({ store: slowStore() })
    // Each write keeps a + b = 0; each read answers a + b.
    const write = (i: number) =>
      h.tuples('core.exec', [['$$', 'proc', ['{}', set('a', i), set('b', -i)]]])
    const sum = () =>
      h.tuples('core.exec', [
        [
          '$$',
          'proc',
          ['{}', get('a'), ['()', 'type.number.add', ['$$', 'value', ['{}', get('b')]]]],
        ],
      ])
    await write(0)
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? write(i) : sum())),
    )
    expect(answers.map(({ status }) => status)).toEqual(Array(40).fill(200))
    const sums = answers.filter((_, i) => i % 2 === 1).map((answer) => answer.json())
    expect(sums).toEqual(Array(20).fill([['<<', 0]]))
  })

  it('journal one run of a request that ran again, with its calls once', async () => {
    const h = await createHarness({ store: slowStore(), exchangeLog: 10 })
    await h.tuples('keyv.set', [
      ['$$', 'key', 'n'],
      ['$$', 'value', 0],
    ])
    await Promise.all([h.tuples('keyv.set', INCREMENT), h.tuples('keyv.set', INCREMENT)])
    const { exchanges } = (await h.control('exchanges')).body as {
      exchanges: Array<{ trace: { calls: Array<{ endpoint: string }> } }>
    }
    for (const exchange of exchanges.slice(0, 2)) {
      expect(exchange.trace.calls.map(({ endpoint }) => endpoint)).toEqual([
        'keyv.set',
        'keyv.get',
        'type.number.add',
      ])
    }
  })

  it('answer 503, writing nothing, when what a request read keeps changing under it', async () => {
    const store = createMemoryStore()
    let reads = 0
    const restless: Store = {
      ...store,
      // Another writer, as fast as every read: each read finds a new value.
      getKey: async (bucket, key) => (key === 'n' ? ++reads : store.getKey(bucket, key)),
    }
    const h = await createHarness({ store: restless })
    const answer = await h.tuples('keyv.set', INCREMENT, { accept: 'application/json' })
    expect(answer.status).toBe(503)
    expect(answer.headers.get('retry-after')).toBe('1')
    expect(answer.json()).toEqual({
      error: {
        message:
          'what this request read kept changing under it (50 runs): nothing was written; try again',
      },
    })
    expect(await store.getKey('default', 'n')).toBeUndefined()
  })
})
