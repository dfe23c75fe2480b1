import type { Account } from '../account/account'
import { prefixed } from '../auth/random'
import type { Clock } from '../clock'
import { ConflictError, UndefinedError } from '../errors'
import type { Store, StoreSnapshot } from '../store'
import type { OperatorCapture, OperatorState } from './state'

/** The most checkpoints one account holds at once. */
export const MAX_CHECKPOINTS = 64

/** A checkpoint on an account's stack: `depth` 1 is the oldest still held. */
export interface Checkpoint {
  id: string
  depth: number
  /** Unix seconds on the account's clock when it was taken. */
  at: number
  /** The newest exchange's id in the journal then (0: none): what came after is the frame's. */
  journal: number
}

/**
 * Everything a test can change in an account: the store (keys, procedures, secrets and so
 * authorizations and cursors, the signing key, the clock's stored offset), the clock, and the
 * operator's controls (faults, strict mode and its report, the rate limit and its window, the
 * journal's mark).
 */
export interface AccountState {
  store: StoreSnapshot
  operator: OperatorCapture
  /** The engine clock's own offset (milliseconds), which `reset()` takes back to 0. */
  clockOffset: number
  /** The time on the clock then (milliseconds): where a seeded account's clock stands again. */
  clockAt?: number
}

/**
 * An account's state as a stack of frames (the model of Cloudflare's Workers Vitest
 * integration): `checkpoint()` keeps the state as it stands on top of the stack;
 * `restore(id)` puts that state back and removes the checkpoint and every one taken after it.
 * A test framework takes one where a scope begins (a file, a `describe`, a test) and restores
 * it where the scope ends, so what a scope's setup wrote is there for everything inside it and
 * what a test wrote is gone after it. The stack is kept by the process that answers for the
 * account; `reset()` leaves it alone.
 */
export function createCheckpoints({
  account,
  operator,
  store,
  clock,
}: {
  account: Account
  operator: OperatorState
  store: Store
  clock: Clock
}) {
  const frames: Array<Checkpoint & { state: AccountState }> = []

  async function capture(): Promise<AccountState> {
    // The signing key is part of what authorizations minted so far rely on: make it now.
    await account.signer()
    const [snapshot, captured] = await Promise.all([store.snapshot(), operator.capture()])
    return { store: snapshot, operator: captured, clockOffset: clock.offset, clockAt: clock.now() }
  }

  async function load(state: AccountState): Promise<void> {
    await account.restoreState(state.store, state.clockOffset, state.clockAt)
    await operator.restore(state.operator)
  }

  /** How many checkpoints were taken: what keys a seeded account's checkpoint ids. */
  let taken = 0

  return {
    capture,
    load,
    list: (): Checkpoint[] =>
      frames.map(({ id, depth, at, journal }) => ({ id, depth, at, journal })),
    async checkpoint(): Promise<Checkpoint> {
      if (frames.length >= MAX_CHECKPOINTS) {
        throw new ConflictError(
          `the account holds ${MAX_CHECKPOINTS} checkpoints, the most it keeps: restore one (POST _account/restore {"id"}) before taking another`,
        )
      }
      const state = await capture()
      const random = await account.random()
      const frame = {
        id: await prefixed('cp_', random.bytes('checkpoint-id', String(++taken), 9)),
        depth: frames.length + 1,
        at: await account.now(),
        journal: state.operator.journalMark,
        state,
      }
      frames.push(frame)
      return { id: frame.id, depth: frame.depth, at: frame.at, journal: frame.journal }
    },
    /** Puts back the state at checkpoint `id`; it and every later one are removed. */
    async restore(id: string): Promise<{ depth: number }> {
      const index = frames.findIndex((frame) => frame.id === id)
      if (index < 0) {
        throw new UndefinedError(
          `no checkpoint \`${id}': restored already, or taken by another process (GET _account/checkpoints lists those held)`,
        )
      }
      const [frame] = frames.splice(index)
      await load(frame!.state)
      return { depth: frames.length }
    },
  }
}

export type Checkpoints = ReturnType<typeof createCheckpoints>
