import { queryOptions, type QueryClient } from '@tanstack/react-query'
import type { CoverageReport } from '../../engine'
import { control } from '../shared/api'
import type { PageExchange } from '../shared/page-store'
import { keys } from '../shared/queries'
import { mintedAuthorization } from '../../client/exchange'

/**
 * Coverage of the page's exchange log, as the engine's own tally makes it (decision 080):
 * `POST /_account/coverage` is sent, in parts, what the tally reads of each exchange, each part
 * with the report of the parts before it. A report is kept with the exchanges it covers, so
 * that when the log has only grown, the next one sends just the new exchanges.
 */

/** The report, and how many exchanges the engine could not read and left out. */
export type PageCoverage = CoverageReport & { skipped: number }

/** The exchanges a report covers: this tab's log from its oldest to its newest page id. */
export interface Covered {
  oldest: number
  newest: number
  count: number
}

/** Roughly how much JSON one request carries; a part holds at least one exchange. */
export const PART_BYTES = 1024 * 1024

export const coverageKeys = {
  all: (baseUrl: string) => [...keys.exchanges(baseUrl), 'coverage'] as const,
  /** The report of the log as it is, named by the exchanges it holds. */
  of: (baseUrl: string, covered: Covered) => [...coverageKeys.all(baseUrl), covered] as const,
}

/** The exchanges a log holds (newest first, as the reader keeps them). */
export const coveredBy = (entries: readonly PageExchange[]): Covered => ({
  oldest: entries.at(-1)?.id ?? 0,
  newest: entries[0]?.id ?? 0,
  count: entries.length,
})

const header = (headers: Array<[string, string]>, name: string) =>
  headers.filter(([key]) => key.toLowerCase() === name)

/**
 * What the tally reads of an exchange: its URL, its content type, its body when it minted an
 * authorization (the abilities asked for), its status and its trace. No other header (the
 * token is in one), and no other body.
 */
export function forTally(exchange: PageExchange) {
  const { request, response, trace } = exchange
  const minted = mintedAuthorization(trace.endpoint, response.status)
  return {
    request: {
      url: request.url,
      headers: header(request.headers, 'content-type'),
      body: minted ? request.body : null,
    },
    response: { status: response.status },
    trace,
  }
}

/** Sends `exchanges` (oldest first) in parts, each added to the report so far. */
export async function coverageOf(
  baseUrl: string,
  exchanges: readonly PageExchange[],
  before?: PageCoverage,
  partBytes = PART_BYTES,
): Promise<PageCoverage> {
  let report = before
  let part: Array<ReturnType<typeof forTally>> = []
  let bytes = 0
  const send = async () => {
    const answer = await control<CoverageReport & { skipped?: number }>(
      baseUrl,
      'POST',
      'coverage',
      {
        skipUnreadable: true,
        entries: part,
        ...(report ? { tally: tallyOf(report) } : {}),
      },
    )
    report = { ...answer, skipped: (report?.skipped ?? 0) + (answer.skipped ?? 0) }
    part = []
    bytes = 0
  }
  for (const exchange of exchanges) {
    const slim = forTally(exchange)
    // A trace's size is most of an exchange's: measured to keep each part near PART_BYTES.
    const size = JSON.stringify(slim.trace).length + slim.request.url.length + 200
    if (part.length > 0 && bytes + size > partBytes) await send()
    part.push(slim)
    bytes += size + (slim.request.body?.data.length ?? 0)
  }
  if (part.length > 0 || !report) await send()
  return report!
}

/** The tally a report adds up from: what the next part is added to. */
const tallyOf = ({ format, version, entries, cells, abilities, mintedWith }: PageCoverage) => ({
  format,
  version,
  entries,
  cells,
  abilities,
  mintedWith,
})

/**
 * The report of the log as it is. A report kept for the same log, before it grew, is added to
 * with only the new exchanges; otherwise (cleared, reset, trimmed) it is counted afresh.
 */
export const coverageQuery = (baseUrl: string, entries: readonly PageExchange[]) => {
  const covered = coveredBy(entries)
  return queryOptions({
    queryKey: coverageKeys.of(baseUrl, covered),
    queryFn: ({ client }) => {
      const earlier = earlierReport(client, baseUrl, covered)
      const fresh = entries.filter((entry) => !earlier || entry.id > earlier.covered.newest)
      return coverageOf(baseUrl, fresh.reverse(), earlier?.report)
    },
    // The log it covers never changes under the same key.
    staleTime: Infinity,
  })
}

/** The newest report kept of an earlier state of the same log, if it has only grown since. */
function earlierReport(client: QueryClient, baseUrl: string, now: Covered) {
  let best: { covered: Covered; report: PageCoverage } | undefined
  for (const [key, report] of client.getQueriesData<PageCoverage>({
    queryKey: coverageKeys.all(baseUrl),
  })) {
    const covered = key[key.length - 1] as Covered
    if (!report || covered.oldest !== now.oldest || covered.newest > now.newest) continue
    if (covered.count > now.count) continue
    if (!best || covered.newest > best.covered.newest) best = { covered, report }
  }
  return best
}
