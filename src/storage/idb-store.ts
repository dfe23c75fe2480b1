import type { IDBPDatabase, IDBPTransaction } from 'idb'
import type { BucketCount, Json, ScanOptions, Store, StoreSnapshot } from '../engine/store'
import { commitMutations, updateIn } from './idb-commit'
import { openDatabase } from './idb-open'
import type { StoreDB, StoreName } from './idb-schema'
import { migrations, storeNames } from './idb-schema'
import { compareSecrets, prefixEnd, scanLimit } from './key-order'

export interface IdbStoreOptions {
  /** The IndexedDB to use; the global `indexedDB` by default. */
  indexedDB?: IDBFactory
}

/** The largest count `getAllKeys` takes (an unsigned long); above it, ask for everything. */
const maxCount = 0xffffffff

/**
 * The keys of one bucket in a scan's window, in one `getAllKeys` over a key range (never a
 * cursor). Keys are `[bucket, key]`; a bucket's keys with the prefix are exactly those from
 * `[bucket, prefix]` up to `[bucket, prefixEnd(prefix)]`, or up to `[bucket, []]` (arrays sort
 * after strings) when the prefix has no end.
 */
type Read<T> = (tx: IDBPTransaction<StoreDB, StoreName[], 'readonly'>) => Promise<T>

/**
 * Runs `read` in a readonly transaction over `names` and answers once the transaction has
 * finished, not merely once its request has: a transaction left to finish later piles up behind
 * a busy caller (fake-indexeddb then rescans every unfinished one on each new transaction).
 */
async function readIn<T>(db: IDBPDatabase<StoreDB>, names: StoreName[], read: Read<T>): Promise<T> {
  const tx = db.transaction(names, 'readonly')
  const [value] = await Promise.all([read(tx), tx.done])
  return value
}

/** A scan's keys, read in `tx` (any transaction over `keyv`). */
export async function scanIn(
  tx: IDBPTransaction<StoreDB, StoreName[], 'readonly' | 'readwrite'>,
  bucket: string,
  options: ScanOptions,
): Promise<string[]> {
  const { prefix, after } = options
  const count = scanLimit(options.limit)
  if (count === 0) return []
  const afterOpen = after !== undefined && after >= prefix
  const start = afterOpen ? after : prefix
  const end = prefixEnd(prefix)
  if (end !== undefined && start >= end) return []
  const range = IDBKeyRange.bound([bucket, start], [bucket, end ?? []], afterOpen, true)
  const keys = await tx.objectStore('keyv').getAllKeys(range, count > maxCount ? undefined : count)
  return keys.map(([, key]) => key)
}

const scan = (db: IDBPDatabase<StoreDB>, bucket: string, options: ScanOptions) =>
  readIn(db, ['keyv'], (tx) => scanIn(tx, bucket, options))

/** Buckets found by jumping before the rest are counted from their keys, and keys a page. */
const bucketJumps = 32
const bucketPage = 5000

/**
 * Every bucket and its count of keys, in one readonly transaction. A key cursor with no range
 * (fake-indexeddb crawls on a bounded one) jumps from each bucket's first key past its last
 * (`[bucket, []]`: arrays sort after strings), and each bucket found is counted with `count`.
 * A jump is a round trip (about 1 ms in Chromium), so past `bucketJumps` buckets the rest are
 * counted from their keys, read `bucketPage` at a time: few buckets cost little however many
 * keys they hold, and many small ones cost no more than reading their keys.
 */
async function listBuckets(db: IDBPDatabase<StoreDB>): Promise<BucketCount[]> {
  return readIn(db, ['keyv'], async (tx) => {
    const keyv = tx.objectStore('keyv')
    const buckets: string[] = []
    let cursor = await keyv.openKeyCursor()
    while (cursor && buckets.length < bucketJumps) {
      const [bucket] = cursor.key
      buckets.push(bucket)
      // idb types the key as the store's `[string, string]`; IndexedDB takes any valid key.
      cursor = await cursor.continue([bucket, []] as unknown as [string, string])
    }
    const counts = await Promise.all(
      buckets.map((bucket) => keyv.count(IDBKeyRange.bound([bucket, ''], [bucket, []]))),
    )
    const listed = buckets.map((bucket, i) => ({ bucket, keys: counts[i] ?? 0 }))
    if (!cursor) return listed
    const rest = new Map<string, number>()
    let range = IDBKeyRange.lowerBound(cursor.key)
    for (;;) {
      const keys = await keyv.getAllKeys(range, bucketPage)
      for (const [bucket] of keys) rest.set(bucket, (rest.get(bucket) ?? 0) + 1)
      const last = keys.at(-1)
      if (keys.length < bucketPage || !last) break
      range = IDBKeyRange.lowerBound(last, true)
    }
    return [...listed, ...[...rest].map(([bucket, keys]) => ({ bucket, keys }))]
  })
}

/** Everything, read in `tx` (any transaction over every object store). */
async function snapshotIn(
  tx: IDBPTransaction<StoreDB, StoreName[], 'readonly' | 'readwrite'>,
): Promise<StoreSnapshot> {
  const [metaKeys, metaValues, secrets, keyv, procs] = await Promise.all([
    tx.objectStore('meta').getAllKeys(),
    tx.objectStore('meta').getAll(),
    tx.objectStore('secrets').getAll(),
    tx.objectStore('keyv').getAll(),
    tx.objectStore('procs').getAll(),
  ])
  return {
    meta: Object.fromEntries(metaKeys.map((key, i) => [key, metaValues[i] as Json])),
    secrets: secrets.sort(compareSecrets),
    keyv,
    procs,
  }
}

async function snapshot(db: IDBPDatabase<StoreDB>): Promise<StoreSnapshot> {
  const tx = db.transaction(storeNames, 'readonly')
  const [read] = await Promise.all([snapshotIn(tx), tx.done])
  return read
}

/**
 * Opens (creating or upgrading as needed) the IndexedDB database `name` as a `Store`. Each
 * commit, and each update (tabs write it too), is one readwrite transaction; `snapshot` is one
 * readonly transaction. The store closes
 * itself, after which every call rejects, when another connection needs to upgrade or delete
 * the database. idb needs the IndexedDB globals (`IDBKeyRange`, `IDBDatabase`, ...) to exist.
 */
export async function openIdbStore(name: string, options: IdbStoreOptions = {}): Promise<Store> {
  const factory = options.indexedDB ?? globalThis.indexedDB
  if (!factory) throw new Error('IndexedDB is not available here')
  let closedReason: string | undefined
  const db = await openDatabase(factory, name, migrations, {
    onClosed: (reason) => (closedReason ??= reason),
  })

  function live(): IDBPDatabase<StoreDB> {
    if (closedReason !== undefined) throw new Error(closedReason)
    return db
  }

  return {
    getMeta: async (key) => readIn(live(), ['meta'], (tx) => tx.objectStore('meta').get(key)),
    getSecret: async (id) => readIn(live(), ['secrets'], (tx) => tx.objectStore('secrets').get(id)),
    listSecrets: async () =>
      (await readIn(live(), ['secrets'], (tx) => tx.objectStore('secrets').getAll())).sort(
        compareSecrets,
      ),
    getKey: async (bucket, key) =>
      (await readIn(live(), ['keyv'], (tx) => tx.objectStore('keyv').get([bucket, key])))?.value,
    scanKeys: async (bucket, options) => scan(live(), bucket, options),
    listBuckets: async () => listBuckets(live()),
    getProc: async (name) => readIn(live(), ['procs'], (tx) => tx.objectStore('procs').get(name)),
    listProcs: async () => readIn(live(), ['procs'], (tx) => tx.objectStore('procs').getAll()),
    // Not awaited first, so the transaction is created in call order.
    commit: async (mutations) => commitMutations(live(), mutations),
    update: async (plan) => updateIn(live(), plan, snapshotIn, scanIn),
    snapshot: async () => snapshot(live()),
    async close() {
      if (closedReason !== undefined) return
      closedReason = `Database ${name} is closed`
      db.close()
    },
  }
}
