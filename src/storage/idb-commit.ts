import type { IDBPDatabase, IDBPTransaction } from 'idb'
import type { Json, Mutation, ScanOptions, StoreReader, StoreSnapshot } from '../engine/store'
import type { StoreDB, StoreName } from './idb-schema'
import { storeNames } from './idb-schema'
import { checkExpectedSecret } from './preconditions'

type WriteTransaction = IDBPTransaction<StoreDB, StoreName[], 'readwrite'>

/** A transaction over every object store, read as a snapshot (`idb-store.ts`). */
export type ReadSnapshot = (
  tx: IDBPTransaction<StoreDB, StoreName[], 'readwrite'>,
) => Promise<StoreSnapshot>

/** A scan read in a transaction over `keyv` (`idb-store.ts`). */
export type ScanIn = (
  tx: IDBPTransaction<StoreDB, StoreName[], 'readwrite'>,
  bucket: string,
  options: ScanOptions,
) => Promise<string[]>

/** Keeps a write request's promise to await at the end, without it ever going unhandled. */
type Track = (request: Promise<unknown>) => void

const ignore = (): void => {}

/** The object stores a mutation touches; throws on a mutation it does not know. */
function scopeOf(mutation: Mutation): readonly StoreName[] {
  switch (mutation.op) {
    case 'putMeta':
    case 'initMeta':
    case 'deleteMeta':
      return ['meta']
    case 'putSecret':
    case 'deleteSecret':
    case 'expectSecret':
      return ['secrets']
    case 'setKey':
    case 'deleteKey':
      return ['keyv']
    case 'putProc':
    case 'deleteProc':
      return ['procs']
    case 'clear':
    case 'restore':
      return storeNames
    default:
      throw new TypeError(`Unknown mutation: ${String((mutation as { op?: unknown }).op)}`)
  }
}

async function initMeta(tx: WriteTransaction, key: string, value: Json, track: Track) {
  const meta = tx.objectStore('meta')
  if ((await meta.getKey(key)) === undefined) track(meta.put(value, key))
}

async function expectSecret(tx: WriteTransaction, expected: Mutation & { op: 'expectSecret' }) {
  checkExpectedSecret(await tx.objectStore('secrets').get(expected.id), expected)
}

function clearAll(tx: WriteTransaction, track: Track): void {
  for (const name of storeNames) track(tx.objectStore(name).clear())
}

function writeSnapshot(tx: WriteTransaction, snapshot: StoreSnapshot, track: Track): void {
  const meta = tx.objectStore('meta')
  for (const [key, value] of Object.entries(snapshot.meta)) track(meta.put(value, key))
  const secrets = tx.objectStore('secrets')
  for (const secret of snapshot.secrets) track(secrets.put(secret))
  const keyv = tx.objectStore('keyv')
  for (const { bucket, key, value } of snapshot.keyv) track(keyv.put({ bucket, key, value }))
  const procs = tx.objectStore('procs')
  for (const proc of snapshot.procs) track(procs.put(proc))
}

/**
 * Issues one mutation's requests. Plain writes are only issued (requests run in order); a
 * mutation that must read first returns the promise of that read, to await before the next.
 */
function issue(tx: WriteTransaction, mutation: Mutation, track: Track): Promise<void> | undefined {
  switch (mutation.op) {
    case 'putMeta':
      track(tx.objectStore('meta').put(mutation.value, mutation.key))
      return
    case 'initMeta':
      return initMeta(tx, mutation.key, mutation.value, track)
    case 'deleteMeta':
      track(tx.objectStore('meta').delete(mutation.key))
      return
    case 'putSecret':
      track(tx.objectStore('secrets').put(mutation.secret))
      return
    case 'deleteSecret':
      track(tx.objectStore('secrets').delete(mutation.id))
      return
    case 'expectSecret':
      return expectSecret(tx, mutation)
    case 'setKey': {
      const { bucket, key, value } = mutation
      track(tx.objectStore('keyv').put({ bucket, key, value }))
      return
    }
    case 'deleteKey':
      track(tx.objectStore('keyv').delete([mutation.bucket, mutation.key]))
      return
    case 'putProc':
      track(tx.objectStore('procs').put(mutation.proc))
      return
    case 'deleteProc':
      track(tx.objectStore('procs').delete(mutation.name))
      return
    case 'clear':
      clearAll(tx, track)
      return
    case 'restore':
      clearAll(tx, track)
      writeSnapshot(tx, mutation.snapshot, track)
      return
  }
}

/**
 * Applies `mutations` in one readwrite transaction over the stores they touch. On any failure,
 * a precondition included, the transaction is aborted (so nothing is written) and the error
 * rethrown once the abort is done. The transaction is created synchronously, so commits start
 * in call order, and nothing but IDB requests is awaited while it is open.
 */
export async function commitMutations(
  db: IDBPDatabase<StoreDB>,
  mutations: readonly Mutation[],
): Promise<void> {
  const scope = new Set(mutations.flatMap(scopeOf))
  if (scope.size === 0) return
  await applyIn(db.transaction([...scope], 'readwrite'), () => mutations)
}

/**
 * Applies the mutations `plan` gives in `tx` and waits for it to commit. On any failure, of the
 * plan or of a mutation, the transaction is aborted (so nothing is written) and the error
 * rethrown once the abort is done.
 */
async function applyIn(
  tx: WriteTransaction,
  plan: () => readonly Mutation[] | Promise<readonly Mutation[]>,
): Promise<void> {
  tx.done.catch(ignore) // Awaited below; this only keeps an early abort from going unhandled.
  const writes: Promise<unknown>[] = []
  const track: Track = (request) => {
    request.catch(ignore)
    writes.push(request)
  }
  try {
    const planned = plan()
    // A plan already made is applied without a turn of waiting first.
    for (const mutation of planned instanceof Promise ? await planned : planned) {
      const read = issue(tx, mutation, track)
      if (read) await read
    }
    await Promise.all([...writes, tx.done])
  } catch (error) {
    try {
      tx.abort()
    } catch {
      // The transaction already ended (it was aborted by the failure itself).
    }
    await tx.done.catch(ignore)
    throw error
  }
}

/**
 * `Store.update` over IndexedDB: one readwrite transaction over every object store, in which
 * `plan` reads (through a reader bound to it) and its mutations are then applied, so no other
 * commit or update, of this tab or another, comes between what it read and what it writes.
 * `plan` may await only the reader's reads: anything else would let the transaction end.
 */
export async function updateIn(
  db: IDBPDatabase<StoreDB>,
  plan: (reader: StoreReader) => Promise<readonly Mutation[]>,
  readSnapshot: ReadSnapshot,
  scanIn: ScanIn,
): Promise<void> {
  const tx = db.transaction([...storeNames], 'readwrite')
  const reader: StoreReader = {
    getMeta: async (key) => tx.objectStore('meta').get(key),
    getSecret: async (id) => tx.objectStore('secrets').get(id),
    getKey: async (bucket, key) => (await tx.objectStore('keyv').get([bucket, key]))?.value,
    scanKeys: (bucket, options) => scanIn(tx, bucket, options),
    getProc: async (name) => tx.objectStore('procs').get(name),
    snapshot: async () => readSnapshot(tx),
  }
  await applyIn(tx, () => plan(reader))
}
