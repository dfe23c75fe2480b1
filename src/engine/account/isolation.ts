import { ServiceError } from '../errors'
import { createOverlay, type Overlay } from '../runtime/overlay'
import type { Store } from '../store'
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

/** Commits the overlay's writes if nothing it read has changed; `false` when something has. */
async function settle(store: Store, overlay: Overlay, quota: number): Promise<boolean> {
  try {
    await update(store, async (reader) => {
      if (!(await overlay.unchanged(reader))) throw CHANGED
      return overlay.writes.length === 0 ? [] : withUsage(reader, overlay.writes, quota)
    })
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
): Promise<T> {
  const turn = turns(store)
  const first = createOverlay(store)
  const result = await attempt(first)
  if (first.writes.length === 0 && first.reads <= 1) return result
  if (await turn(() => settle(store, first, quota))) return result
  return turn(async () => {
    for (let runs = 1; ; runs++) {
      const overlay = createOverlay(store)
      const again = await attempt(overlay)
      if (await settle(store, overlay, quota)) return again
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
