import { ServiceError } from '../errors'
import { createOverlay, type Overlay } from '../runtime/overlay'
import type { Mutation, Store, StoreReader } from '../store'
import type { CommitRecord } from './changes'
import { update } from './update'
import { withUsage } from './usage'

/**
 * One request's reads and writes, isolated from every other request's (decision 046): the
 * request runs as if no other ran beside it, in one process or in several over one database.
 *
 * A request first runs optimistically: it reads the store as it is and buffers its writes
 * (`overlay.ts`). At its end, in one atomic step with its commit (`update`: one transaction
 * where the store has them, in turn with every other update of the store otherwise), it checks
 * that every key, scan and procedure it read still reads the same. If so it commits; if not,
 * something it went on from changed meanwhile, and it runs again from the start, this time
 * holding the account's turn in this process from its first read to its commit, so that no
 * other request of this process can come between (only one over the same database from
 * another process can, and then it runs again). A request that read one thing and wrote
 * nothing needs no check: a single read is its own moment.
 */

/** How many runs under the account's turn a request gets before it is answered 503. */
const MAX_RUNS = 50

/** The account's turns in this process: one request at a time holds one. */
type Turns = <T>(run: () => Promise<T>) => Promise<T>

const turnsOf = new WeakMap<Store, Turns>()

function turns(store: Store): Turns {
  let found = turnsOf.get(store)
  if (!found) {
    let tail: Promise<unknown> = Promise.resolve()
    found = (run) => {
      const result = tail.then(run)
      tail = result.catch(() => undefined)
      return result
    }
    turnsOf.set(store, found)
  }
  return found
}

const CHANGED = Symbol('changed')

/**
 * Where a request's commit is recorded, when the account keeps its history (decision 086):
 * what it changes, read in the commit's own atomic step, and the record kept once committed.
 */
export interface CommitRecorder {
  record(reader: StoreReader, mutations: readonly Mutation[]): Promise<CommitRecord>
  committed(commit: CommitRecord): void
}

/** A reader that reads each key, procedure, secret and meta entry at most once. */
function remembering(reader: StoreReader): StoreReader {
  const seen = new Map<string, Promise<unknown>>()
  const once = <T>(id: string, read: () => Promise<T>): Promise<T> => {
    let found = seen.get(id) as Promise<T> | undefined
    if (!found) seen.set(id, (found = read()))
    return found
  }
  return {
    getMeta: (key) => once(`m\u0000${key}`, () => reader.getMeta(key)),
    getSecret: (id) => once(`s\u0000${id}`, () => reader.getSecret(id)),
    getKey: (bucket, key) => once(`k\u0000${bucket}\u0000${key}`, () => reader.getKey(bucket, key)),
    getProc: (name) => once(`p\u0000${name}`, () => reader.getProc(name)),
    scanKeys: (bucket, options) => reader.scanKeys(bucket, options),
    snapshot: () => reader.snapshot(),
  }
}

/** Commits the overlay's writes if nothing it read has changed; `false` when something has. */
async function settle(
  store: Store,
  overlay: Overlay,
  quota: number,
  recorder?: CommitRecorder,
): Promise<boolean> {
  let recorded: CommitRecord | undefined
  try {
    await update(store, async (reader) => {
      if (!(await overlay.unchanged(reader))) throw CHANGED
      if (overlay.writes.length === 0) return []
      const read = recorder ? remembering(reader) : reader
      const mutations = await withUsage(read, overlay.writes, quota)
      if (recorder) recorded = await recorder.record(read, mutations)
      return mutations
    })
    if (recorded) recorder!.committed(recorded)
    return true
  } catch (error) {
    if (error === CHANGED) return false
    throw error
  }
}

/**
 * Runs `attempt` (one evaluation of a request over the overlay it is given) isolated as above,
 * committing its writes held to the account's `quota`; its result once committed. `attempt`
 * may run more than once: each run starts afresh, with a new overlay.
 */
export async function runIsolated<T>(
  store: Store,
  quota: number,
  attempt: (overlay: Overlay) => Promise<T>,
  recorder?: CommitRecorder,
): Promise<T> {
  const turn = turns(store)
  const first = createOverlay(store)
  const result = await attempt(first)
  if (first.writes.length === 0 && first.reads <= 1) return result
  if (await turn(() => settle(store, first, quota, recorder))) return result
  return turn(async () => {
    for (let runs = 1; ; runs++) {
      const overlay = createOverlay(store)
      const again = await attempt(overlay)
      if (await settle(store, overlay, quota, recorder)) return again
      if (runs >= MAX_RUNS) {
        throw new ServiceError(
          503,
          'contention',
          `what this request read kept changing under it (${MAX_RUNS} runs): nothing was written; try again`,
          { 'retry-after': '1' },
        )
      }
    }
  })
}
