import { afterEach, beforeEach, describe } from 'vitest'
import type { Store } from '../../engine/store'
import { bucketContract } from './buckets'
import { commitContract } from './commit'
import { extensionContract } from './extensions'
import type { ContractContext } from './fixtures'
import { keyvContract } from './keyv'
import { loadContract, type OpenTransactions } from './load'
import { updateContract } from './update'
import { recordContract } from './records'

export interface ContractOptions {
  /** How to count a store's unfinished transactions, for implementations that have them. */
  openTransactions?: OpenTransactions
  /** The store offers `update`, and is held to it. */
  update?: boolean
}

/**
 * Registers the `Store` contract suite for one implementation. `makeStore` must return a new,
 * empty store each time, independent of every other; the suite closes what it opens.
 */
export function describeStoreContract(
  name: string,
  makeStore: () => Promise<Store>,
  options: ContractOptions = {},
): void {
  describe(`${name} meets the Store contract`, () => {
    let opened: Store[] = []
    let current: Store | undefined

    beforeEach(async () => {
      current = await makeStore()
      opened.push(current)
    })

    afterEach(async () => {
      await Promise.all(opened.map((store) => store.close()))
      opened = []
      current = undefined
    })

    const context: ContractContext = {
      store() {
        if (!current) throw new Error('No store: use store() inside a test')
        return current
      },
      async makeStore() {
        const store = await makeStore()
        opened.push(store)
        return store
      },
    }

    describe('meta, secrets and procedures', () => recordContract(context))
    describe('keys', () => keyvContract(context))
    describe('buckets', () => bucketContract(context))
    describe('commits, snapshots and lifecycle', () => commitContract(context))
    describe('MessagePack extensions, through the engine', () => extensionContract(context))
    if (options.update)
      describe('updates: read, then commit, in one step', () => updateContract(context))
    describe('under load, through the engine', () =>
      loadContract(context, options.openTransactions))
  })
}
