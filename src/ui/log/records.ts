import type { ExchangeRecord } from '../../engine'
import { tokenOf } from '../../client/exchange'

/**
 * What the log view derives from the engine's records, without React: filtering, and reading
 * the parts of a record a person looks for (token, endpoint, bodies).
 */

/** A status filter: every status, a class (`2xx`, `4xx`, `5xx`) or one status (`401`). */
export type StatusFilter = string

export interface LogFilter {
  status: StatusFilter
  /** Text the endpoint (or, for a request to no endpoint, the URL's path) contains. */
  endpoint: string
}

export const STATUS_CLASSES = ['2xx', '4xx', '5xx'] as const

export function matches(record: ExchangeRecord, filter: LogFilter): boolean {
  const status = record.response.status
  const wanted = filter.status.trim()
  if (/^\dxx$/.test(wanted) && Math.floor(status / 100) !== Number(wanted[0])) return false
  if (/^\d{3}$/.test(wanted) && status !== Number(wanted)) return false
  const text = filter.endpoint.trim().toLowerCase()
  return text === '' || endpointOf(record).toLowerCase().includes(text)
}

/** The endpoint a request named, or its URL's path when it named none. */
export function endpointOf(record: ExchangeRecord): string {
  if (record.trace.endpoint) return record.trace.endpoint
  try {
    return new URL(record.request.url).pathname
  } catch {
    return record.request.url
  }
}

export { headerOf, tokenOf } from '../../client/exchange'

/** What the token was, as the engine's trace says, in a few words. */
export function credentialLabel(record: ExchangeRecord): string {
  const credential = record.trace.credential
  if (!credential) return tokenOf(record) ? 'token not read' : 'no token'
  switch (credential.kind) {
    case 'secret':
      return 'secret'
    case 'authorization':
      return 'authorization'
    case 'none':
      return credential.reason === 'malformed' ? 'malformed header' : 'no token'
    case 'unknown':
      return 'unknown token'
  }
}

/** Real milliseconds, as a person reads them. */
export function formatMs(ms: number): string {
  if (ms < 10) return `${ms.toFixed(1)} ms`
  if (ms < 1000) return `${Math.round(ms)} ms`
  return `${(ms / 1000).toFixed(2)} s`
}
