import type { Json, Mutation, ProcRecord, SecretRecord, Store } from '../../engine/store'

/** What each part of the contract suite is given. */
export interface ContractContext {
  /** The store under test: a fresh one for every test. */
  store(): Store
  /** Another fresh store, closed after the test. */
  makeStore(): Promise<Store>
}

export function secret(
  id: string,
  createdAt: number,
  rest: Partial<SecretRecord> = {},
): SecretRecord {
  return { id, key: `key-${id}`, createdAt, expiresAt: null, rolledTo: null, ...rest }
}

export function proc(name: string, proc: Json = { steps: [name] }): ProcRecord {
  return { name, proc, createdAt: 1, updatedAt: 2 }
}

/** One `setKey` per key, each key's value being the key itself. */
export function setKeys(bucket: string, keys: readonly string[]): Mutation[] {
  return keys.map((key) => ({ op: 'setKey', bucket, key, value: key }))
}

/** Code-unit order, spelled out rather than trusting the default sort. */
export function sortKeys(keys: readonly string[]): string[] {
  return [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

/** Reads a bucket's keys with the prefix page by page, checking every page's size. */
export async function scanPaged(store: Store, bucket: string, prefix: string, limit: number) {
  const keys: string[] = []
  for (;;) {
    const page = await store.scanKeys(bucket, { prefix, after: keys.at(-1), limit })
    if (page.length > limit) throw new Error(`A page of ${page.length} keys, over ${limit}`)
    keys.push(...page)
    if (page.length < limit) return keys
  }
}

/** A store with something in every part of it. */
export async function fill(store: Store): Promise<void> {
  await store.commit([
    { op: 'putMeta', key: 'version', value: 3 },
    { op: 'putMeta', key: 'owner', value: { name: 'Zoë', tags: ['a', null] } },
    { op: 'putSecret', secret: secret('s2', 20) },
    { op: 'putSecret', secret: secret('s1', 10, { expiresAt: 99, rolledTo: 's2' }) },
    ...setKeys('b', ['y', 'x']),
    ...setKeys('a', ['z']),
    { op: 'putProc', proc: proc('p2') },
    { op: 'putProc', proc: proc('p1') },
  ])
}
