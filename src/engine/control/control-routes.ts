import type { TokenReport } from '../account/account'
import type { AccountSnapshot } from '../account/snapshot'
import type { SecretView } from '../account/secrets'
import type { CoverageReport, CoverageTally } from '../insight/coverage'
import type {
  DiffReport,
  ReachReport,
  ResourceQuery,
  SimulateCall,
  SimulateReport,
  WatchesReport,
  WhoReachesReport,
} from '../insight/types'
import type { LeastPrivilegeReport } from '../insight/least/types'
import type { RateLimit } from '../settings'
import type { BucketCount, ProcRecord } from '../store'
import type { Checkpoint } from '../operator/checkpoints'
import type { BranchComparison } from '../history/compare-branches'
import type { BranchInfo, BranchList, ReplayReport } from '../history/history'
import type { Recording } from '../history/recording'
import type { ExchangeRecord } from '../operator/exchange-log'
import type { FaultOptions, FaultRule } from '../operator/fault-rule'
import type { StrictEntry } from '../operator/strict'

/** A declared input or argument, as `GET endpoints` describes it. */
export interface ParamSpec {
  type: string
  required?: boolean
  default?: unknown
  doc?: string
}

/** One endpoint of the engine's catalogue, as `GET endpoints` lists it. */
export interface EndpointInfo {
  name: string
  summary: string
  insecure: boolean
  input: ParamSpec | null
  args: Record<string, ParamSpec>
}

/**
 * A page of the journal: its capacity, the bytes of exchanges' JSON it holds at most (the
 * oldest go past either), and the exchanges asked for, newest first.
 */
export interface ExchangePage {
  capacity: number
  maxBytes: number
  exchanges: ExchangeRecord[]
}

/** Strict mode, and every request it saw with what the client did wrong. */
export interface StrictReport {
  enabled: boolean
  requests: StrictEntry[]
}

/**
 * The account control plane under `<baseUrl>/_account/`, declared once: each route's method
 * and path (`:id` stands for one segment), the JSON body it reads, the query it takes and the
 * JSON it answers. The control plane implements exactly these (`control-plane.ts`); the one
 * client (`src/client/control.ts`) is typed from them, as hono's `hc` is from its routes.
 */
export interface ControlRoutes {
  'GET secrets': { answer: SecretView[] }
  'POST secrets': { body: { key?: string }; answer: SecretView }
  /** Rolls now, or at `at` (Unix seconds on the account's clock); answers the replacement. */
  'POST secrets/:id/roll': { body: { at?: number }; answer: SecretView }
  /** Cancels the secret's scheduled roll (decision 060); answers the secret as it now is. */
  'POST secrets/:id/cancel-roll': { body: Record<string, never>; answer: SecretView }
  /** The time; `still` while it stands (a seeded account: moved only when moved). */
  'GET clock': { answer: { now: number; still: boolean } }
  'POST clock': { body: { advance: number }; answer: { now: number } }
  /**
   * Back to the state the account started in (see `Engine.reset`); with `seed`, seeded with it
   * from now on (`null`: with none), decision 086.
   */
  'POST reset': { body: { seed?: string | number | null }; answer: { ok: true } }
  /** The account's seed; `null` when it draws from the platform (decision 086). */
  'GET seed': { answer: { seed: string | null } }
  /**
   * Keeps the account's whole state on top of its stack of frames (decision 065); answers the
   * checkpoint to restore at the scope's end.
   */
  'POST checkpoint': { body: Record<string, never>; answer: Checkpoint }
  /** The state at checkpoint `id` back; it and every later one removed. */
  'POST restore': { body: { id: string }; answer: { depth: number } }
  /** The checkpoints held, oldest first. */
  'GET checkpoints': { answer: Checkpoint[] }
  /** Every fault still set, the first to match first. */
  'GET faults': { answer: FaultRule[] }
  /** Adds a rule; answers every rule, the new one last. */
  'POST faults': { body: FaultOptions; answer: FaultRule[] }
  'POST faults/clear': { body: Record<string, never>; answer: FaultRule[] }
  'POST faults/:id/clear': { body: Record<string, never>; answer: FaultRule[] }
  'GET rate-limit': { answer: RateLimit }
  'POST rate-limit': {
    body: { enforce: boolean; limit?: number; windowSeconds?: number }
    answer: RateLimit
  }
  'GET strict': { answer: StrictReport }
  'POST strict': { body: { enabled: boolean }; answer: StrictReport }
  'GET export': { answer: AccountSnapshot }
  'POST import': { body: AccountSnapshot; answer: { ok: true } }
  'POST inspect': { body: { token: string }; answer: TokenReport }
  'GET endpoints': { answer: EndpointInfo[] }
  'GET procedures': { answer: ProcRecord[] }
  'GET buckets': { answer: BucketCount[] }
  /** What the token can do, at `at` or now (decision 055). */
  'POST reach': { body: { token: string; at?: number }; answer: ReachReport }
  /** The decision for each call, writing nothing. */
  'POST simulate': {
    body: { token: string; calls: SimulateCall[]; at?: number }
    answer: SimulateReport
  }
  /** What each token reaches that the other does not, each item with its proof. */
  'POST diff': { body: { a: string; b: string; at?: number }; answer: DiffReport }
  /**
   * Which of the account's secrets and of `tokens` reach a resource (an endpoint, a bucket and
   * key, a stored procedure), until when and through which ability; no token is repeated, a
   * token of `tokens` comes back by its index (decision 088).
   */
  'POST who-reaches': {
    body: { resource: ResourceQuery; tokens?: string[]; at?: number }
    answer: WhoReachesReport
  }
  /** The watches the account keeps, each asked again of the engine's rules now (decision 088). */
  'GET watches': { answer: WatchesReport }
  /** Pins a watch: that `token` is let in by `call` (`allowed`) or refused (`refused`). */
  'POST watches': {
    body: { token: string; call: SimulateCall; expect: 'allowed' | 'refused'; label?: string }
    answer: WatchesReport
  }
  'POST watches/:id/delete': { body: Record<string, never>; answer: WatchesReport }
  /**
   * The coverage report of the journal entries given (the account's own journal when none are),
   * added to `tally`; `skipped` counts the entries left out when `skipUnreadable` (decision 080).
   */
  'POST coverage': {
    body: { entries?: ExchangeRecord[]; tally?: CoverageTally; skipUnreadable?: boolean }
    answer: CoverageReport & { skipped?: number }
  }
  /**
   * Takes the account (store, controls, clock) back to just before exchange `before`, on a new
   * branch (named `name`); the timeline it leaves stays as its own branch (decision 086). 404
   * for an exchange never kept, 410 for one older than the history keeps (naming the oldest it
   * reaches), 409 while the journal is off.
   */
  'POST rewind': { body: { before: number; name?: string }; answer: BranchInfo }
  /** The branches, the one the account is on, and the oldest exchange a rewind reaches. */
  'GET branches': { answer: BranchList }
  /** Onto branch `id` as it was left. */
  'POST branches/:id/switch': { body: Record<string, never>; answer: BranchInfo }
  'POST branches/:id/name': { body: { name: string }; answer: BranchInfo }
  /** Deletes a branch the account is not on; answers those left. */
  'POST branches/:id/delete': { body: Record<string, never>; answer: BranchList }
  /** Two branches from where they part: each one's exchanges, the first that differs, tokens minted. */
  'GET branches/compare': { query: { a: string; b: string }; answer: BranchComparison }
  /**
   * Sends exchanges `from`..`to` (its branch's last by default) again on a new branch made before
   * `from`, comparing each answer with the journal's; stops at the first that differs.
   */
  'POST replay': { body: { from: number; to?: number }; answer: ReplayReport }
  /** Exchanges `from`..`to` with what stood before: to replay on another account. */
  'GET recording': { query: { from: number; to?: number }; answer: Recording }
  /**
   * Before a recording's exchange is sent again: the account as the change before it left it
   * (`account`, imported), the controls and the clock as the exchange met them (`mark`);
   * answers the journal's exchanges after `after`, oldest first (those sent since, replayed).
   */
  'POST replay/state': {
    body: { account?: AccountSnapshot; mark?: unknown; after?: number }
    answer: { exchanges: ExchangeRecord[] }
  }
  /**
   * Every token of the journal entries given (the account's own journal when none are), or only
   * `token`, with the narrowest `auth.create` arguments for its use, proven (decision 090);
   * `skipped` counts the entries left out when `skipUnreadable`.
   */
  'POST least-privilege': {
    body: { entries?: ExchangeRecord[]; token?: string; skipUnreadable?: boolean }
    answer: LeastPrivilegeReport & { skipped?: number }
  }
  /** The journal, newest first; only exchanges with an id above `after` when given. */
  'GET exchanges': { query: { after?: number }; answer: ExchangePage }
  /** Keeps the last `capacity` exchanges from now on; 0 turns the journal off. */
  'POST exchanges': { body: { capacity: number }; answer: { capacity: number } }
  'POST exchanges/clear': { body: Record<string, never>; answer: { ok: true } }
}

export type ControlRoute = keyof ControlRoutes
export type ControlMethod = ControlRoute extends `${infer M} ${string}` ? M : never

/** A route's path with each `:name` as any one segment: `secrets/${string}/roll`. */
export type PathOf<P extends string> = P extends `${infer Head}:${string}/${infer Tail}`
  ? `${Head}${string}/${PathOf<Tail>}`
  : P extends `${infer Head}:${string}`
    ? `${Head}${string}`
    : P

/** The paths a client may ask for with `method`. */
export type ControlPath<M extends ControlMethod> = {
  [K in ControlRoute]: K extends `${M} ${infer P}` ? PathOf<P> : never
}[ControlRoute]

/** The route `method` and `path` reach. */
export type RouteAt<M extends ControlMethod, P extends string> = {
  [K in ControlRoute]: K extends `${M} ${infer R}` ? (P extends PathOf<R> ? K : never) : never
}[ControlRoute]

export type AnswerOf<K extends ControlRoute> = ControlRoutes[K]['answer']
export type BodyOf<K extends ControlRoute> = ControlRoutes[K] extends { body: infer B } ? B : never
export type QueryOf<K extends ControlRoute> = ControlRoutes[K] extends { query: infer Q }
  ? Q
  : never

/** Where the control plane answers, below an account's base URL. */
export const CONTROL_PREFIX = '_account'
