import type { LoggedBody } from '../../operator/exchange-log'
import type { RequestTrace } from '../../trace'
import type { CoverageEntry, CoverageTally } from './tally'

/** What a JSON file holds, for coverage: journal entries, or a tally already made. */
export type CoverageInput =
  | { kind: 'entries'; entries: CoverageEntry[] }
  | { kind: 'tally'; tally: CoverageTally }
  | { kind: 'contracts' }
  | { kind: 'unknown' }

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const isEntry = (value: unknown): value is CoverageEntry =>
  isObject(value) && isObject(value.trace) && isObject(value.request) && isObject(value.response)

/** A HAR entry the page saved (its `_trace`) as a journal entry. */
function fromHar(entry: Record<string, unknown>): CoverageEntry | undefined {
  const request = entry.request as Record<string, unknown> | undefined
  const response = entry.response as Record<string, unknown> | undefined
  if (!isObject(entry._trace) || !request || !response) return undefined
  const headers = Array.isArray(request.headers)
    ? (request.headers as Array<{ name: string; value: string }>).map(
        ({ name, value }) => [name, value] as [string, string],
      )
    : []
  const post = request.postData as
    { text?: string; _encoding?: string; comment?: string } | undefined
  const body: LoggedBody | null =
    post?.text === undefined
      ? null
      : {
          encoding: post._encoding === 'base64' ? 'base64' : 'text',
          data: post.text,
          bytes: Number(request.bodySize) || post.text.length,
          truncated: typeof post.comment === 'string' && post.comment.startsWith('cut at'),
        }
  const at = typeof entry._virtualTime === 'string' ? Date.parse(entry._virtualTime) / 1000 : NaN
  return {
    request: { url: String(request.url), headers, body },
    response: { status: Number(response.status) },
    trace: entry._trace as unknown as RequestTrace,
    ...(Number.isFinite(at) ? { at } : {}),
  }
}

/**
 * Reads what a file holds: the journal as `GET /_account/exchanges` answers it (or its list of
 * exchanges alone), the page's export (its exchange log), a HAR the page saved, a coverage
 * file (a tally, to add up), or contracts (to replay).
 */
export function readCoverageInput(value: unknown): CoverageInput {
  if (Array.isArray(value)) return { kind: 'entries', entries: value.filter(isEntry) }
  if (!isObject(value)) return { kind: 'unknown' }
  if (value.format === 'service-playground-coverage') {
    return { kind: 'tally', tally: value as unknown as CoverageTally }
  }
  if (Array.isArray(value.exchanges))
    return { kind: 'entries', entries: value.exchanges.filter(isEntry) }
  const page = value.playground
  if (isObject(page) && Array.isArray(page.exchanges)) {
    return { kind: 'entries', entries: page.exchanges.filter(isEntry) }
  }
  const log = value.log
  if (isObject(log) && Array.isArray(log.entries)) {
    return {
      kind: 'entries',
      entries: log.entries.flatMap((e) => (isObject(e) ? (fromHar(e) ?? []) : [])),
    }
  }
  if (Array.isArray(value.cases)) return { kind: 'contracts' }
  return { kind: 'unknown' }
}
