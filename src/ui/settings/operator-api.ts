import { queryOptions } from '@tanstack/react-query'
import type { FaultKind, FaultRule } from '../../engine'
import { control } from '../shared/api'
import { keys } from '../shared/queries'

/**
 * The operator's controls on the account control plane (decision 015, 033): faults a client's
 * retry logic meets, strict mode and its report, the rate limit's enforcement. What `serve` and
 * the kit offer, here over fetch like everything else the page does.
 */

export type { FaultKind, FaultRule }

/** A fault as the form asks for it (`POST /_account/faults`). */
export interface FaultRequest {
  kind: FaultKind
  status?: number
  retryAfter?: number
  delayMs?: number
  endpoint?: string
  token?: string
  /** Calls it applies to; `null` for every matching call until cleared. */
  count: number | null
  probability: number
}

export interface StrictReport {
  enabled: boolean
  requests: Array<{ method: string; url: string; at: number; deviations: string[] }>
}

export interface RateLimitView {
  limit: number
  windowSeconds: number
  enforce: boolean
}

const operatorKey = (baseUrl: string, part: string) =>
  [...keys.account(baseUrl), 'operator', part] as const

export const faultsQuery = (baseUrl: string) =>
  queryOptions({
    queryKey: operatorKey(baseUrl, 'faults'),
    queryFn: () => control<FaultRule[]>(baseUrl, 'GET', 'faults'),
  })

export const strictQuery = (baseUrl: string) =>
  queryOptions({
    queryKey: operatorKey(baseUrl, 'strict'),
    queryFn: () => control<StrictReport>(baseUrl, 'GET', 'strict'),
  })

export const rateLimitQuery = (baseUrl: string) =>
  queryOptions({
    queryKey: operatorKey(baseUrl, 'rate-limit'),
    queryFn: () => control<RateLimitView>(baseUrl, 'GET', 'rate-limit'),
  })

export const addFault = (baseUrl: string, fault: FaultRequest) =>
  control<FaultRule[]>(baseUrl, 'POST', 'faults', fault)

export const clearFault = (baseUrl: string, id: string) =>
  control<FaultRule[]>(baseUrl, 'POST', `faults/${encodeURIComponent(id)}/clear`, {})

export const clearFaults = (baseUrl: string) => control<[]>(baseUrl, 'POST', 'faults/clear', {})

export const setStrict = (baseUrl: string, enabled: boolean) =>
  control<StrictReport>(baseUrl, 'POST', 'strict', { enabled })

export const setRateLimit = (baseUrl: string, rate: RateLimitView) =>
  control<RateLimitView>(baseUrl, 'POST', 'rate-limit', rate)
