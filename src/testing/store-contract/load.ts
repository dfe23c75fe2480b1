import { expect, it } from 'vitest'
import { createHarness } from '../engine-harness'
import type { Store } from '../../engine/store'
import type { ContractContext } from './fixtures'
import { loadCalls } from './load-calls'

/** Counts the transactions a store has started and not yet finished, where it can tell. */
export type OpenTransactions = (store: Store) => number

/** A hundred calls of each kind: every key of the bucket written ten times over. */
const calls = 500

/**
 * The engine over this store answers call after call of every kind, and every call finishes
 * what it opened (no transaction left behind to slow the next). How the cost of a call holds
 * after 5,000 of them is measured by `npm run bench -- store-load`, as a ratio within one run.
 */
export function loadContract(context: ContractContext, openTransactions?: OpenTransactions): void {
  it(`answers ${calls} calls of every kind, leaving nothing open after any of them`, async () => {
    const store = context.store()
    const call = await loadCalls(await createHarness({ store }))
    for (let i = 0; i < calls; i++) {
      const answer = await call(i)
      if (answer.status !== 200)
        throw new Error(`call ${i} answered ${answer.status}: ${answer.text}`)
      // Every transaction a call opened has finished by the time it answers.
      if (openTransactions) expect(openTransactions(store), `after call ${i}`).toBe(0)
    }
  }, 60_000)
}
