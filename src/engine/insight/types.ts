// The shapes reach, simulate and diff answer with, over the control plane and the kit alike
// (decision 055). Plain JSON: the playground renders them over fetch. None holds a token or a
// secret key: a token is described (its kind, its secret's id, its abilities), never repeated.

import type { Json } from '../store'
import type { CallTrace, CredentialTrace } from '../trace'
import type { Counterfactual } from '../auth/counterfactual'
import type { SimulateCall } from '../account/watch'

export type { Counterfactual } from '../auth/counterfactual'
export type { SimulateCall } from '../account/watch'

/** What a token is at the moment asked about: its credential trace, and whether it is usable. */
export interface TokenSummary extends CredentialTrace {
  state: 'usable' | 'expired' | 'invalid'
}

/** A region of the key-value store an ability reaches: `null` is every bucket, or every key. */
export interface ReachLimit {
  /** The ability, as written, that reaches this region. */
  ability: string
  bucket: string | null
  prefix: string | null
}

/** One endpoint of the catalogue, and whether the token can call it. */
export interface ReachEndpoint {
  endpoint: string
  /** The top-level package it is in: `type`, `keyv`, `lib`. */
  package: string
  /** Granting an ability that covers it needs `insecure: true`. */
  insecure: boolean
  decision: 'allowed' | 'refused'
  /** What lets it in: the secret key, or an ability. */
  grant: 'secret' | 'ability' | null
  /** The first ability that covers it, as written (limits included). */
  ability: string | null
  /**
   * For an endpoint that touches the key-value store: the regions it reaches, one per covering
   * ability; `null` when it reaches every bucket and key (or touches none).
   */
  limits: ReachLimit[] | null
  /** Why it is refused: `missing_ability`, or the credential's reason (`expired`, ...). */
  code: string | null
  /** One sentence: why it is allowed, or why not. */
  explanation: string
  /** For a refused endpoint: the smallest change that would let the token call it. */
  counterfactual?: Counterfactual
}

/** A package of the catalogue: how many of its endpoints the token reaches. */
export interface ReachPackage {
  /** `type`, `type.string`, `lib`, ... every dotted prefix of an endpoint's name. */
  package: string
  endpoints: number
  allowed: number
  decision: 'all' | 'some' | 'none'
}

/** `POST /_account/reach`: what a token can do, at a moment. */
export interface ReachReport {
  /** The moment it was asked about, Unix seconds on the virtual clock. */
  at: number
  token: TokenSummary
  /**
   * When it stops working: its own expiry, or its secret's scheduled roll, whichever comes
   * first; `null` when neither is set. A token already unusable says why in `token`.
   */
  stops: { at: number | null; because: 'expiry' | 'roll' | null }
  /** The insecure abilities it holds (each covers an insecure endpoint). */
  insecureAbilities: string[]
  /**
   * It reaches `auth.create`: it can mint authorizations with any abilities (as the real
   * service allows), so what it reaches by delegation is everything its secret reaches, until
   * it stops. A secret key delegates too.
   */
  delegates: boolean
  /** Every endpoint of the catalogue (built-ins, then stored procedures at `lib.<name>`). */
  endpoints: ReachEndpoint[]
  packages: ReachPackage[]
}

/** What the engine decided for one simulated call. */
export interface SimulatedCall {
  endpoint: string
  /**
   * `allowed`: it would answer 200. `refused`: 401, the token or an ability did not reach it.
   * `failed`: let in, it would answer another error (a missing argument, an undefined name).
   */
  decision: 'allowed' | 'refused' | 'failed'
  /** The status and message a real call would be answered with. */
  status: number
  code: string | null
  message: string | null
  /** The engine's reason, from its decision trace. */
  explanation: string
  /** For a call not allowed: the smallest change that would have let it in. */
  counterfactual?: Counterfactual
  /** Every endpoint call it would make, as the decision trace records them. */
  calls: CallTrace[]
}

/** `POST /_account/simulate`: the decision for each call, writing nothing. */
export interface SimulateReport {
  at: number
  token: TokenSummary
  results: SimulatedCall[]
}

/** A concrete call that proves a difference: the token that reaches is let in, the other refused. */
export interface Counterexample {
  endpoint: string
  input?: Json
  args?: Record<string, Json>
  /** When to make it, Unix seconds on the virtual clock. */
  at: number
}

/** Something one token reaches that the other does not. */
export interface DiffItem {
  /**
   * `endpoint`: the other cannot call it at all. `limit`: both can, but not in the same
   * bucket or key. `time`: both can, but this one still can at a moment the other cannot.
   */
  kind: 'endpoint' | 'limit' | 'time'
  endpoint: string
  /** `limit`: the bucket and key (or scan prefix) one reaches and the other does not. */
  where?: { bucket: string; key: string }
  sentence: string
  counterexample: Counterexample
  /** The engine's decision on the counterexample for each token, as simulate gives it. */
  proof: {
    reaches: Pick<SimulatedCall, 'decision' | 'status' | 'code'>
    refused: Pick<SimulatedCall, 'decision' | 'status' | 'code'>
  }
  /**
   * The refused token could mint a token reaching this (it reaches `auth.create`): a difference
   * of the tokens themselves, not of what their holder can end up doing.
   */
  delegated: boolean
}

/** `POST /_account/diff`: what `b` reaches that `a` does not, and the reverse. */
export interface DiffReport {
  at: number
  a: TokenSummary
  b: TokenSummary
  /** Both hang from the same secret (a roll of it ends both). */
  sameSecret: boolean
  /** What `b` reaches that `a` does not. */
  gained: DiffItem[]
  /** What `a` reaches that `b` does not. */
  lost: DiffItem[]
}

/**
 * A resource to ask who reaches: an endpoint (`keyv.get`, `lib.notes`), a bucket of the
 * key-value store and optionally one key in it, or a stored procedure by its name.
 */
export interface ResourceQuery {
  /** An endpoint by name; or */
  endpoint?: string
  /** a bucket, and optionally one `key` in it (for `keyv.scan`, the prefix it scans); or */
  bucket?: string
  key?: string
  /** a stored procedure by name (`notes` is called at `lib.notes`). */
  procedure?: string
}

/** One token, and whether (and how, and until when) it reaches the resource asked about. */
export interface ReachedBy {
  /** `secret`: one of the account's secret keys. `given`: `tokens[index]` of the question. */
  source: 'secret' | 'given'
  index: number | null
  /** What the token is now: its kind, secret, abilities, times, state. */
  token: TokenSummary
  /** It is usable and reaches the resource through at least one endpoint. */
  reaches: boolean
  /** It is usable and holds `auth.create`: it could mint a token that reaches anything. */
  delegates: boolean
  /**
   * Each endpoint of the resource it reaches, and what lets it in: the secret key, or the
   * ability as written; for a bucket asked about whole, whether it reaches every key of it or
   * only those under a prefix.
   */
  through: Array<{
    endpoint: string
    grant: 'secret' | 'ability'
    ability: string | null
    keys: 'all' | { prefix: string }
  }>
  /** When it stops (its expiry, or its secret's roll), for a usable token; `null` otherwise or never. */
  until: number | null
  because: 'expiry' | 'roll' | null
}

/** `POST /_account/who-reaches`: every token asked about (and each secret), for one resource. */
export interface WhoReachesReport {
  at: number
  resource: ResourceQuery
  /** The endpoints the resource stands for: one, or the key-value endpoints for a bucket. */
  endpoints: string[]
  tokens: ReachedBy[]
}

/** One watch, asked again: what it expects, what the engine answers now, whether that holds. */
export interface WatchReport {
  id: string
  /** What the person calls the watched token; never the token itself. */
  label: string | null
  call: SimulateCall
  expect: 'allowed' | 'refused'
  createdAt: number
  /** What the watched token is now; `null` when the call could not even be simulated. */
  subject: TokenSummary | null
  /** The engine's decision on the call now, as simulate gives it (without the call trace). */
  result: Omit<SimulatedCall, 'calls'>
  /** The decision is the one expected. */
  holds: boolean
}

/** `GET /_account/watches`: every watch the account keeps, asked again at `at`. */
export interface WatchesReport {
  at: number
  watches: WatchReport[]
  /** How many do not hold. */
  failing: number
  /**
   * The first moment after `at` a watched token stops working (its expiry, or its secret's
   * roll): the answers may change then with nothing else changed; `null` when none will.
   */
  changesAt: number | null
}
