import type { ExchangeRecord } from '../../engine'
import type { ExchangePage } from './api'

/**
 * What the log view derives from the engine's records, without React: merging polled pages,
 * filtering, and reading the parts of a record a person looks for (token, endpoint, bodies).
 */

/**
 * The list after a poll that asked for everything after `known`'s newest id but one. The
 * newest record is asked for again on purpose: when it does not come back, the engine's log
 * was emptied since (a clear or a reset, from this view or anywhere else), and the page
 * replaces the list instead of growing a stale one. Records already held keep their identity,
 * so an unchanged list is the same object.
 */
export function mergePage(known: ExchangePage | undefined, page: ExchangePage): ExchangePage {
  const newest = known?.exchanges[0]?.id
  if (!known || newest === undefined || !page.exchanges.some((r) => r.id === newest)) return page
  const fresh = page.exchanges.filter((record) => record.id > newest)
  if (fresh.length === 0 && page.capacity === known.capacity) return known
  return {
    capacity: page.capacity,
    exchanges: [...fresh, ...known.exchanges].slice(0, page.capacity),
  }
}

/** The id to poll after: the newest held but one (see `mergePage`), or none. */
export const pollAfter = (known: ExchangePage | undefined): number | undefined => {
  const newest = known?.exchanges[0]?.id
  return newest === undefined ? undefined : newest - 1
}

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

/** A header's value (the first of that name), case-insensitively. */
export function headerOf(headers: Array<[string, string]>, name: string): string | undefined {
  const wanted = name.toLowerCase()
  return headers.find(([key]) => key.toLowerCase() === wanted)?.[1]
}

/** The bearer token a request sent, if its `authorization` header held one. */
export function tokenOf(record: ExchangeRecord): string | undefined {
  const header = headerOf(record.request.headers, 'authorization')
  const match = header ? /^bearer\s+(\S+)\s*$/i.exec(header) : null
  return match?.[1]
}

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
