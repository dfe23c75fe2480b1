import { ForbiddenError } from '../errors'
import type { FaultKind } from '../wire/response'

export const FAULT_STATUSES = [408, 429, 500, 502, 503, 504] as const
export type FaultStatus = (typeof FAULT_STATUSES)[number]

export interface FaultRule {
  id: string
  kind: FaultKind
  /** The status a `status` fault answers with; `null` for the other kinds. */
  status: FaultStatus | null
  /** Calls it still applies to; `null`: every matching call until cleared. */
  count: number | null
  /** Only calls to this endpoint, or to every endpoint of this package (whole segments). */
  endpoint: string | null
  /**
   * Only calls carrying this bearer token, or a token of this role, as the journal names them:
   * `secret`, `authorization` (any authorization the account signed) or `none`.
   */
  token: string | null
  /** The chance a matching call meets it (and uses up one of its `count`). */
  probability: number
  /** Real milliseconds to wait first; for `hang`, how long before the connection drops. */
  delayMs: number
  /** The `retry-after` seconds of a 429. */
  retryAfter: number
  /** What a `respond` rule answers. */
  answer?: CannedAnswer
}

/** An answer a `respond` rule gives: its status, headers (lower-case names) and raw body. */
export interface CannedAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/**
 * A `respond` rule's answer as given: `body` a text sent as it is (`text/plain` unless the
 * headers say), or any other JSON value sent as JSON (`application/json`); `status` 200 unless
 * given.
 */
export interface AnswerOptions {
  status?: number
  headers?: Record<string, string>
  body?: unknown
}

/** The most fault rules one account may have set at once. */
export const MAX_FAULT_RULES = 100

/** 403: the account has as many rules as it may; said with the limit and the way out. */
export const tooManyFaults = (): ForbiddenError =>
  new ForbiddenError(
    `the account has ${MAX_FAULT_RULES} fault rules set, the most it may: clear some (POST /_account/faults/<id>/clear, or POST /_account/faults/clear) first`,
    'too_many_faults',
  )
/** A rule as the control plane and the helpers take it: without `kind`, a `status` answers in place. */
export type FaultOptions = Partial<Omit<FaultRule, 'id' | 'count' | 'answer'>> & {
  /**
   * Calls it applies to (default 1, or every call for `respond`); `null`: every matching call
   * until cleared.
   */
  count?: number | null
  once?: true
  answer?: AnswerOptions
}

/** The roles a rule's `token` may name in place of a token, as the journal names them. */
export const TOKEN_ROLES = ['secret', 'authorization', 'none'] as const
