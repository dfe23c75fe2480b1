import type {
  AccountSnapshot,
  BucketCount,
  ExchangeRecord,
  SecretView,
  TokenReport,
} from '../../engine'
import type { EndpointInfo, ParamSpec } from '../../engine/control/control-routes'
import type { ProcRecord } from '../../engine/store'
import { ControlError, controlClient } from '../../client/control'
import type { BranchComparison } from '../../engine/history/compare-branches'
import type { BranchInfo, BranchList } from '../../engine/history/history'

/**
 * The account control plane (`<baseUrl>/_account/...`), over fetch like any other client: the
 * one module the views read and change the account through. Endpoint calls (`keyv.get`,
 * `auth.create`, …) go through `wire.ts` and `endpoint-call.ts` instead, with a bearer token.
 */

export type { ProcRecord }

/** A control-plane error, with the HTTP status and the engine's message. */
export class AccountError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
    this.name = 'AccountError'
  }
}

/** One control-plane request; answers the parsed JSON, or throws `AccountError`. */
export async function control<T>(
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  body?: object,
): Promise<T> {
  try {
    return await controlClient({ baseUrl }).request<T>(
      path,
      method === 'GET' ? undefined : (body ?? {}),
    )
  } catch (error) {
    if (!(error instanceof ControlError)) throw error
    throw new AccountError(
      error.status,
      error.status < 400
        ? `${method} ${path} answered something not JSON`
        : error.reason || `${method} ${path} failed with ${error.status}`,
    )
  }
}

/** A declared input or argument, and one endpoint of the catalogue, as the control plane says. */
export type { EndpointInfo, ParamSpec }

export interface ClockView {
  /** Unix seconds on the engine's virtual clock. */
  now: number
  /** The clock stands still (a seeded account): it moves only when moved. */
  still?: boolean
}

/** A page of the engine's exchange log: its capacity, and the records asked for, newest first. */
export interface ExchangePage {
  capacity: number
  exchanges: ExchangeRecord[]
}

export const listSecrets = (baseUrl: string) => control<SecretView[]>(baseUrl, 'GET', 'secrets')

export const createSecret = (baseUrl: string) => control<SecretView>(baseUrl, 'POST', 'secrets', {})

/** Rolls `id` now, or at `at` (Unix seconds on the virtual clock); returns the replacement. */
export const rollSecret = (baseUrl: string, id: string, at?: number) =>
  control<SecretView>(
    baseUrl,
    'POST',
    `secrets/${encodeURIComponent(id)}/roll`,
    at === undefined ? {} : { at },
  )

export const getClock = (baseUrl: string) => control<ClockView>(baseUrl, 'GET', 'clock')

export const advanceClock = (baseUrl: string, seconds: number) =>
  control<ClockView>(baseUrl, 'POST', 'clock', { advance: seconds })

/** Every stored procedure, by name, with its tuples and times (virtual Unix seconds). */
export const listProcedures = (baseUrl: string) =>
  control<ProcRecord[]>(baseUrl, 'GET', 'procedures')

/** Every bucket holding keys, with its count (the account's view, not a token's). */
export const listBuckets = (baseUrl: string) => control<BucketCount[]>(baseUrl, 'GET', 'buckets')

/** The engine's catalogue of endpoints. */
export const listEndpoints = (baseUrl: string) =>
  control<EndpointInfo[]>(baseUrl, 'GET', 'endpoints')

/** What the engine says a token is now. */
export const inspectToken = (baseUrl: string, token: string) =>
  control<TokenReport>(baseUrl, 'POST', 'inspect', { token })

/** The exchanges the engine keeps, newest first; only those with an id above `after` when given. */
export const listExchanges = (baseUrl: string, after?: number) =>
  control<ExchangePage>(baseUrl, 'GET', after ? `exchanges?after=${after}` : 'exchanges')

/** Empties the engine's exchange log. */
export const clearExchanges = (baseUrl: string) =>
  control<{ ok: true }>(baseUrl, 'POST', 'exchanges/clear', {})

export const resetAccount = (baseUrl: string, seed?: string | null) =>
  control<{ ok: true }>(baseUrl, 'POST', 'reset', seed === undefined ? {} : { seed })

/** The account's seed (decision 086); `null` when it draws from the platform. */
export const getSeed = (baseUrl: string) => control<{ seed: string | null }>(baseUrl, 'GET', 'seed')

export type { BranchComparison, BranchInfo, BranchList }

/** The account's branches, the one it is on, and the oldest exchange a rewind reaches. */
export const listBranches = (baseUrl: string) => control<BranchList>(baseUrl, 'GET', 'branches')

/** Back to just before the engine's exchange `before`, on a new branch. */
export const rewindTo = (baseUrl: string, before: number) =>
  control<BranchInfo>(baseUrl, 'POST', 'rewind', { before })

export const switchBranch = (baseUrl: string, id: string) =>
  control<BranchInfo>(baseUrl, 'POST', `branches/${encodeURIComponent(id)}/switch`, {})

export const deleteBranch = (baseUrl: string, id: string) =>
  control<BranchList>(baseUrl, 'POST', `branches/${encodeURIComponent(id)}/delete`, {})

/** Two branches from where they part, side by side. */
export const compareBranches = (baseUrl: string, a: string, b: string) =>
  control<BranchComparison>(baseUrl, 'GET', `branches/compare?${new URLSearchParams({ a, b })}`)

export const exportAccount = (baseUrl: string) => control<AccountSnapshot>(baseUrl, 'GET', 'export')

/** Replaces the whole account with an exported one; the engine refuses what its API would. */
export const importAccount = (baseUrl: string, snapshot: object) =>
  control<{ ok: true }>(baseUrl, 'POST', 'import', snapshot)
