import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import type { LeastPrivilegeReport } from '../../engine'
import { control } from './api'
import { useConfig } from './config'
import { useExchangeLog } from './exchange-log'
import type { PageExchange } from './page-store'
import { keys } from './queries'
import { mintedAuthorization } from '../../client/exchange'

/**
 * The narrowest token for each token's use in this tab's log, as the engine suggests and proves
 * it (`POST /_account/least-privilege`, decision 090): the page sends the exchanges made with
 * authorizations (and the `auth.create` calls that minted them), newest first up to a bound,
 * never a bearer header. The account's own access asks; the token tightened is named by value
 * only in the request's `token` field, as reach names it.
 */

/** The report, and how many exchanges the engine could not read and left out. */
export type PageLeastPrivilege = LeastPrivilegeReport & { skipped?: number }

/** The most exchanges sent at once, and roughly the most bytes of them. */
export const MAX_SENT = 2_000
const MAX_SENT_BYTES = 12 * 1024 * 1024

/** What least privilege reads of an exchange: no header but the content type. */
export function forLeastPrivilege(exchange: PageExchange) {
  const { request, response, trace, at } = exchange
  return {
    at,
    request: {
      url: request.url,
      headers: request.headers.filter(([name]) => name.toLowerCase() === 'content-type'),
      body: request.body,
    },
    response: { status: response.status },
    trace,
  }
}

/** The exchanges of the log (newest first) that least privilege reads, bounded, oldest first. */
export function exchangesToSend(entries: readonly PageExchange[]) {
  const sent: Array<ReturnType<typeof forLeastPrivilege>> = []
  let bytes = 0
  for (const exchange of entries) {
    const minted = mintedAuthorization(exchange.trace.endpoint, exchange.response.status)
    if (!minted && exchange.trace.credential?.kind !== 'authorization') continue
    const size = JSON.stringify(exchange.trace).length + (exchange.request.body?.data.length ?? 0)
    if (sent.length >= MAX_SENT || bytes + size > MAX_SENT_BYTES) break
    sent.push(forLeastPrivilege(exchange))
    bytes += size + exchange.request.url.length + 200
  }
  return sent.reverse()
}

export const leastKeys = {
  of: (baseUrl: string, token: string | undefined, newest: number, count: number) =>
    [...keys.account(baseUrl), 'insight', 'least', token ?? '', newest, count] as const,
}

/** The report for `token` (every token of the log when absent) over `entries`. */
export const leastQuery = (
  baseUrl: string,
  token: string | undefined,
  entries: readonly PageExchange[],
) =>
  queryOptions({
    queryKey: leastKeys.of(baseUrl, token, entries[0]?.id ?? 0, entries.length),
    queryFn: () =>
      control<PageLeastPrivilege>(baseUrl, 'POST', 'least-privilege', {
        skipUnreadable: true,
        entries: exchangesToSend(entries),
        ...(token === undefined ? {} : { token }),
      }),
  })

/** The narrowest token for `token`'s use in this tab's log (every token's, without one). */
export function useLeastPrivilege(token: string | undefined, enabled = true) {
  const { baseUrl } = useConfig()
  const log = useExchangeLog()
  const entries = log.data?.entries ?? []
  const query = useQuery({
    ...leastQuery(baseUrl, token, entries),
    enabled: enabled && log.isSuccess,
    placeholderData: keepPreviousData,
  })
  return { query, logError: log.error }
}
