import type { Mutation, Store, StoreReader } from '../store'

const queues = new WeakMap<Store, Promise<unknown>>()

/**
 * Reads with `plan`, then commits the mutations it returns, with no other update of `store`
 * in between: what a count needs (the account's usage, the clock's offset), so that two
 * requests never both read the same count and one of them lose its change. A store several
 * processes share does it in one transaction (`Store.update`); for any other, updates through
 * the same store take turns here.
 */
export function update(
  store: Store,
  plan: (reader: StoreReader) => Promise<readonly Mutation[]>,
): Promise<void> {
  if (store.update) return store.update(plan)
  const previous = queues.get(store) ?? Promise.resolve()
  const next = previous
    .catch(() => undefined)
    .then(async () => {
      const mutations = await plan(store)
      if (mutations.length > 0) await store.commit(mutations)
    })
  queues.set(store, next)
  return next
}
