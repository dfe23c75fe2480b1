import { ClientGoneError } from '../engine/errors'
import type { AccountTurns, Pause } from '../engine/runtime/turns'

/**
 * Fair shares of one process's CPU between the accounts it hosts (decision 072). Evaluations
 * are pure computation over a store that often answers at once, so without a scheduler the
 * event loop is shared out per request: an account that sends 64 heavy requests gets 64 shares
 * and every other account waits behind them.
 *
 * - **A cap per account.** At most `perAccount` requests of one account run at once; the
 *   rest wait, in the order they came, before they start (before their body is read): a burst
 *   of one account costs the others no more than `perAccount` requests' worth, however many
 *   wait. A request's time limit counts from its start, not from its arrival; one whose client
 *   goes away while it waits leaves the queue.
 * - **Turns across accounts.** An evaluation that has run `sliceMs` since its last turn gives
 *   way: it waits in its account's queue, and the event loop's next turn resumes one waiting
 *   evaluation, of the next account in a ring (round robin, each account one slice a turn).
 *   Between two slices the loop reads sockets, so a light request (a ping, a key read) of
 *   another account is answered within about one slice.
 * - **Within an account, the oldest first.** Of an account's evaluations waiting for a turn,
 *   the one admitted first is resumed: it is the nearest its time limit, so an account that
 *   asks for more than its share gets some answers in time rather than none.
 * - A request that never runs `sliceMs` is never paused, and an account alone on the server
 *   loses nothing but a loop turn each `sliceMs`.
 */
export interface FairShareOptions {
  /** Evaluations of one account running at once; more wait to start. Default 8. */
  perAccount?: number
  /** Milliseconds an evaluation runs before it gives way to the next account. Default 1. */
  sliceMs?: number
  /** The clock slices are measured on; `performance.now` by default. */
  now?: () => number
  /** Runs `run` at the event loop's next turn; `setImmediate` by default. */
  nextTurn?: (run: () => void) => void
}

export interface FairShare {
  /** The turns of the account `id` (any string naming it; the server's own is `''`). */
  account(id: string): AccountTurns
  /** Evaluations running and waiting to start, per account, for tests and diagnostics. */
  load(): Map<string, { running: number; waiting: number }>
}

interface AccountState {
  /** Evaluations admitted and not yet done. */
  running: number
  /** Requests waiting to be admitted, each its start. */
  waiting: Set<() => void>
  /** Evaluations that gave way, each its resumption, oldest admitted first. */
  ready: Array<{ order: number; resume: () => void }>
}

export function createFairShare(options: FairShareOptions = {}): FairShare {
  const {
    perAccount = 8,
    sliceMs = 1,
    now = () => performance.now(),
    nextTurn = (run) => void setImmediate(run),
  } = options
  const states = new Map<string, AccountState>()
  /** Accounts with an evaluation ready to resume, in the order they get their turn. */
  const ring: string[] = []
  let scheduled = false
  /** Admissions so far: an evaluation's number orders it among its account's. */
  let admitted = 0

  const stateOf = (id: string): AccountState => {
    let state = states.get(id)
    if (!state) states.set(id, (state = { running: 0, waiting: new Set(), ready: [] }))
    return state
  }

  function schedule(): void {
    if (scheduled || ring.length === 0) return
    scheduled = true
    nextTurn(resumeNext)
  }

  /** One slice, of the next account in the ring; then the loop turns again. */
  function resumeNext(): void {
    scheduled = false
    const id = ring.shift()
    if (id !== undefined) {
      const state = states.get(id)!
      const { resume } = state.ready.shift()!
      if (state.ready.length > 0) ring.push(id)
      resume()
    }
    schedule()
  }

  function giveWay(id: string, order: number): Promise<void> {
    const state = stateOf(id)
    return new Promise((resume) => {
      if (state.ready.length === 0) ring.push(id)
      // The oldest first: it is the nearest its time limit, and done, it frees its place.
      const at = state.ready.findIndex((other) => other.order > order)
      state.ready.splice(at === -1 ? state.ready.length : at, 0, { order, resume })
      schedule()
    })
  }

  function forget(id: string, state: AccountState): void {
    if (state.running === 0 && state.waiting.size === 0 && state.ready.length === 0) {
      states.delete(id)
    }
  }

  function account(id: string): AccountTurns {
    return {
      async admit(run, signal, signalWhenWaiting) {
        if (signal?.aborted) throw new ClientGoneError()
        const state = stateOf(id)
        // A slot freed by one that ends is handed to the first waiting: `running` stays.
        if (state.running >= perAccount)
          await waitToStart(id, state, signal ?? signalWhenWaiting?.())
        else state.running++
        const order = admitted++
        let sliceStart: number | undefined
        const pause: Pause = () => {
          const at = now()
          if (sliceStart === undefined) {
            sliceStart = at
            return undefined
          }
          if (at - sliceStart < sliceMs) return undefined
          // Its next slice starts when it is resumed.
          return giveWay(id, order).then(() => void (sliceStart = now()))
        }
        try {
          return await run(pause)
        } finally {
          const [next] = state.waiting
          if (next) {
            state.waiting.delete(next)
            next()
          } else state.running--
          forget(id, state)
        }
      },
    }
  }

  /** Waits in the account's queue for a place; leaves it when `signal` aborts. */
  function waitToStart(id: string, state: AccountState, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) {
      forget(id, state)
      return Promise.reject(new ClientGoneError())
    }
    return new Promise<void>((started, gone) => {
      const start = () => {
        signal?.removeEventListener('abort', leave)
        started()
      }
      const leave = () => {
        state.waiting.delete(start)
        forget(id, state)
        gone(new ClientGoneError())
      }
      state.waiting.add(start)
      signal?.addEventListener('abort', leave, { once: true })
    })
  }

  return {
    account,
    load: () =>
      new Map(
        [...states].map(([id, state]) => [
          id,
          { running: state.running, waiting: state.waiting.size },
        ]),
      ),
  }
}
