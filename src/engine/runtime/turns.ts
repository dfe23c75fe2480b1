/**
 * Fair turns on the event loop. Calls over a memory store never leave the microtask queue, so
 * a CPU-heavy request would hold the loop until it ends. `yieldWhenDue` measures how long
 * evaluations (all of them together) have run since the loop last had a turn, and once that
 * passes the slice, waits for a macrotask so that I/O and timers get in.
 */

import { realTime } from '../real-time'

type Schedule = (run: () => void) => void

// Node's setImmediate runs right after pending I/O; elsewhere a zero timeout does the same.
const nextTurn: Schedule = realTime.setImmediate ?? ((run) => realTime.setTimeout(run, 0))

/** When the current run of microtasks began; `undefined` once the loop has had a turn. */
let runStarted: number | undefined

/**
 * When evaluations have run `sliceMs` without the event loop having a turn, the wait for its
 * next turn; `undefined` (nothing to wait for) otherwise.
 */
export function yieldWhenDue(sliceMs: number): Promise<void> | undefined {
  const now = realTime.monotonic()
  if (runStarted === undefined) {
    runStarted = now
    nextTurn(() => (runStarted = undefined))
    return undefined
  }
  if (now - runStarted < sliceMs) return undefined
  return new Promise<void>((resolve) => nextTurn(resolve))
}

/**
 * Asked between calls: `undefined` to go on, or a wait until the evaluation's next turn. One
 * per evaluation.
 */
export type Pause = () => Promise<void> | undefined

/**
 * How one account's requests take turns with every other account's, on a server that hosts
 * several (`src/server/fair-share.ts`): `admit` runs a request once the account may start
 * another, handing it the pause it asks between calls (and between steps of long work), or
 * rejects with `ClientGoneError` when `signal` aborts before it starts. Without one, an
 * engine's evaluations yield as `yieldWhenDue` says.
 */
export interface AccountTurns {
  /**
   * `signalWhenWaiting`, in place of `signal`, makes the client's signal only if the request
   * waits to start: a request's signal costs an `AbortController` and a listener on its
   * connection, and most requests never wait.
   */
  admit<T>(
    run: (pause: Pause) => Promise<T>,
    signal?: AbortSignal,
    signalWhenWaiting?: () => AbortSignal | undefined,
  ): Promise<T>
}
