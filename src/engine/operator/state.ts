import type { RateLimit } from '../settings'
import type { Json } from '../store'
import type { ExchangeRecord, JournalEntry, KeptExchange } from './exchange-log'
import type { Random } from '../auth/random'
import type { FaultDraw } from './fault-match'
import type { FaultRule } from './fault-rule'
import type { StrictEntry } from './strict'
import type { RateWindow } from '../rate-window'

export type { RateWindow } from '../rate-window'

/** What the operator sets up, as a service starts and as a reset brings it back. */
export interface OperatorModes {
  strict: boolean
  /** How many exchanges the journal keeps; 0 keeps none. */
  journal: number
  rateLimit: RateLimit
}

/** The operator's controls as one request finds them: read once, before anything else. */
export interface OperatorView extends OperatorModes {
  window: RateWindow
  /** Whether any fault is set; a request looks for one to take only then. */
  faulted: boolean
  /**
   * The account's clock offset as its store holds it (`null`: none), when the state reads it in
   * the same step as the rest, as one over the account's own database can: the engine then
   * does not read it again. Without it, the engine reads it from the store.
   */
  clockOffset?: Json
}

/**
 * Where the operator's controls of one account live: faults and what is left of each, strict
 * mode and its report, the journal, the rate limit and its window. The engine keeps no copy:
 * it reads them through this, once per request, so several engines over one shared state (one
 * per `serve` process over one database) act as one service. `createLocalOperator` keeps them
 * in this process, as the page and the Node API need; `serve --data postgres://…` keeps them
 * in the database.
 */
export interface OperatorState {
  /** The controls as this request finds them: at once where they are kept in the process. */
  view(): OperatorView | Promise<OperatorView>
  faults: {
    add(rule: Omit<FaultRule, 'id'>): Promise<FaultRule>
    /** Every rule still set, the first to match first, with the calls left of each. */
    list(): Promise<FaultRule[]>
    remove(id: string): Promise<boolean>
    clear(): Promise<void>
    /**
     * The first rule this call meets, one of its calls used up, at once: a rule with one call
     * left is met by exactly one request, whichever engine answers it. `role` is what the
     * token is, as the journal names it (`secret`, `authorization`, `none`, `unknown`).
     */
    take(
      endpoint: string,
      token: string | null,
      role: string,
      draw?: FaultDraw,
      /** Aborts when the client gives up on the call: what a chaos planner's hang watches. */
      signal?: AbortSignal,
    ): Promise<FaultRule | undefined>
  }
  /**
   * Counts one endpoint call on the account's timeline and answers its step (from 1): what keys
   * a seeded account's draws in it (decision 086). Absent where the controls are shared by
   * several processes (PostgreSQL), whose accounts are never seeded.
   */
  step?(): number
  /** Draws fault ids from the account's generator, as `source` gives it (decision 086). */
  useRandom?(source: () => Random): void
  /**
   * The controls as the account's history sees them (decision 086): kept where they live in
   * this process; absent where several processes share them, whose accounts keep no history.
   */
  timeline?: OperatorTimeline
  strict: {
    /** Switches strict mode, and empties its report. */
    set(enabled: boolean): Promise<void>
    record(entry: StrictEntry): Promise<void>
    /** Every request strict mode saw, oldest first, the last 1,000. */
    report(): Promise<StrictEntry[]>
  }
  journal: {
    /** Keeps this many from now on (the newest, when it shrinks); 0 turns it off. */
    setCapacity(capacity: number): Promise<void>
    /**
     * Keeps an exchange, giving it the next id, when the journal is on. A record to be made
     * later may be made when it is first read (in this process) or at once (to be stored).
     */
    add(exchange: KeptExchange): void | Promise<void>
    /** Newest first; only those after `after` when given. */
    list(after?: number): Promise<ExchangeRecord[]>
    clear(): Promise<void>
  }
  rate: {
    /** Sets the limit; the window is kept. */
    set(limit: RateLimit): Promise<void>
    /**
     * Counts one call at `now` (Unix seconds), in a new window once the current one is
     * `windowSeconds` old; the window with it counted.
     */
    count(now: number, windowSeconds: number): Promise<RateWindow>
  }
  /** No faults, an empty report, journal and window; strict mode and the rate limit as given. */
  reset(modes: Pick<OperatorModes, 'strict' | 'rateLimit'>): Promise<void>
  /** Everything above as it stands, for a checkpoint (see `OperatorCapture`). */
  capture(): Promise<OperatorCapture>
  /** Back to a capture: its modes, window, faults (same ids, calls left) and report, in one step. */
  restore(capture: OperatorCapture): Promise<void>
}

/**
 * The operator's controls as a checkpoint keeps them. The journal is kept as a mark: restoring
 * removes every exchange after it (ids go on increasing; what a reset removed stays removed).
 */
export interface OperatorCapture extends OperatorModes {
  window: RateWindow
  faults: FaultRule[]
  report: StrictEntry[]
  /** The newest exchange's id then (0: none). */
  journalMark: number
  /** The calls counted on the timeline then (see `OperatorState.step`). */
  steps?: number
  /** How many fault rules had been added then: what keys a seeded account's next id. */
  faultsAdded?: number
}

/**
 * The operator's controls as they stand before one step of the account's timeline: cheap
 * enough to take before every exchange. `controls` is one object shared by every mark taken
 * while they stay as they are (only the calls counted and the strict report's length move with
 * each exchange); `report`, taken where a branch is left, holds the report's entries too.
 */
export interface OperatorMark {
  controls: MarkControls
  steps: number
  reportTotal: number
  report?: StrictEntry[]
}

/** The controls a mark shares with the marks before and after it while nothing changes them. */
export interface MarkControls extends OperatorModes {
  window: RateWindow
  faults: FaultRule[]
  faultsAdded: number
}

/** What the account's history reads and sets of the controls kept in this process. */
export interface OperatorTimeline {
  /** The controls as they stand (with the strict report's entries when `withReport`). */
  mark(withReport?: boolean): OperatorMark
  /** Puts the controls back as `mark` has them, the journal holding `journal` when given. */
  goTo(mark: OperatorMark, journal?: readonly JournalEntry[]): void
  /** How many exchanges the journal keeps: the history keeps steps while it keeps any. */
  journalCapacity(): number
  /** The journal's entries, oldest first. */
  journalEntries(): JournalEntry[]
  /** The exchange the journal kept last. */
  lastJournalEntry(): JournalEntry | undefined
  /** Takes every exchange after `id` out of the journal, as a restore does. */
  dropJournalAfter(id: number): void
  /**
   * Told when the journal loses exchanges other than its oldest: every one after `after` (0 for
   * a clear or a reset, the checkpoint's mark for a restore).
   */
  onJournalCut(listener: (after: number) => void): void
}
