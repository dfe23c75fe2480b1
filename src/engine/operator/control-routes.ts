import type { TokenReport } from '../account/account'
import type { AccountSnapshot } from '../account/snapshot'
import type { SecretView } from '../account/secrets'
import type { CoverageReport, CoverageTally } from '../insight/coverage'
import type { DiffReport, ReachReport, SimulateCall, SimulateReport } from '../insight/types'
import type { LeastPrivilegeReport } from '../insight/least/types'
import type { RateLimit } from '../settings'
import type { BucketCount, ProcRecord } from '../store'
import type { Checkpoint } from './checkpoints'
import type { ExchangeRecord } from './exchange-log'
import type { FaultOptions, FaultRule } from './faults'
import type { StrictEntry } from './strict'

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
  'GET clock': { answer: { now: number } }
  'POST clock': { body: { advance: number }; answer: { now: number } }
  /** Back to the state the account started in (see `Engine.reset`). */
  'POST reset': { body: Record<string, never>; answer: { ok: true } }
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
   * The coverage report of the journal entries given (the account's own journal when none are),
   * added to `tally`; `skipped` counts the entries left out when `skipUnreadable` (decision 080).
   */
  'POST coverage': {
    body: { entries?: ExchangeRecord[]; tally?: CoverageTally; skipUnreadable?: boolean }
    answer: CoverageReport & { skipped?: number }
  }
  /**
   * Every token of the journal entries given (the account's own journal when none are), or only
   * `token`, with the narrowest `auth.create` arguments for its use, proven (decision 087);
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
