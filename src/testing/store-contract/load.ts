import { expect, it } from 'vitest'
import { createHarness } from '../engine-harness'
import type { Store } from '../../engine/store'
import type { ContractContext } from './fixtures'

/** Counts the transactions a store has started and not yet finished, where it can tell. */
export type OpenTransactions = (store: Store) => number

const calls = 5000
const window = 400

/** The median of per-call durations in `[from, to)`: robust to a stray pause of the machine. */
function median(durations: readonly number[], from: number, to: number): number {
  const slice = durations.slice(from, to).sort((a, b) => a - b)
  return slice[Math.floor(slice.length / 2)] ?? 0
}

/**
 * The engine over this store answers its 5,000th call at the cost of its first: every call
 * finishes what it opened (no transaction left behind to slow the next) and nothing it stores
 * makes later calls dearer. The cost is compared as a ratio within one run, never a timing.
 */
export function loadContract(context: ContractContext, openTransactions?: OpenTransactions): void {
  it('keeps a call as cheap after 5,000 calls as at the start, leaving nothing open', async () => {
    const store = context.store()
    const h = await createHarness({ store })
    const token = await h.authorize({ abilities: ['type', 'core', 'keyv?bucket=load'] })
    const kinds = [
      () => h.tuples('type.string.reverse', [['>>', ['%%', 'abc']]]),
      () => h.tuples('type.string.reverse', [['>>', ['%%', 'abc']]], { token }),
      () =>
        h.tuples(
          'core.exec',
          [
            [
              '$$',
              'proc',
              [
                '{}',
                ['>>', ['%%', 'ab']],
                ['()', 'type.string.reverse'],
                ['()', 'type.string.capitalize'],
              ],
            ],
          ],
          { token },
        ),
      (i: number) =>
        h.tuples(
          'keyv.set',
          [
            ['$$', 'bucket', 'load'],
            ['$$', 'key', `k${i % 50}`],
            ['$$', 'value', ['%%', i]],
          ],
          { token },
        ),
      () =>
        h.tuples(
          'keyv.scan',
          [
            ['$$', 'bucket', 'load'],
            ['$$', 'count', 10],
          ],
          { token },
        ),
    ]
    const durations: number[] = []
    for (let i = 0; i < calls; i++) {
      const kind = kinds[i % kinds.length]!
      const started = performance.now()
      const answer = await kind(i)
      durations.push(performance.now() - started)
      if (answer.status !== 200)
        throw new Error(`call ${i} answered ${answer.status}: ${answer.text}`)
      // Every transaction a call opened has finished by the time it answers.
      if (openTransactions && i % 100 === 99)
        expect(openTransactions(store), `after call ${i}`).toBe(0)
    }
    const first = median(durations, 0, window)
    const last = median(durations, calls - window, calls)
    expect(last / first, `median call: first ${first} ms, last ${last} ms`).toBeLessThanOrEqual(1.3)
  }, 120_000)
}
