import { isDeepStrictEqual } from 'node:util'
import type { ExchangeRecord } from '../engine'
import type { Counterfactual } from '../engine/insight/counterfactual'
import { headerOf, readSent, type SentFormat } from './exchange'

/** How many exchanges a service started for tests keeps by default. */
export const DEFAULT_JOURNAL = 1000

/** A request the service received, as a test asserts on it. */
export interface ReceivedRequest {
  /** The journal's id: increases by one per request. */
  id: number
  /** The dotted endpoint at the request's URL (`null` when the path named none). */
  endpoint: string | null
  method: string
  url: string
  status: number
  /** How the body was sent: by its content type, `none` when there was no body. */
  format: SentFormat
  /** What the bearer token was: `unknown` when it was never read (a fault answered first). */
  token: 'secret' | 'authorization' | 'none' | 'unknown'
  /** Why the token was refused (`expired`, `secret_rolled`, …), `null` when it was not. */
  tokenRefused: string | null
  /** The authorization's abilities, when the token was one. */
  abilities: string[] | null
  /** The input, when the body carried one (`undefined` otherwise). */
  input?: unknown
  /** Named arguments from the body and the query string. */
  args: Record<string, unknown>
  /** The error's message, for an answer other than 200. */
  message: string | null
  /** The kind or status of a fault that answered, from `x-fault`. */
  fault: string | null
  /** For an answer other than 200: the smallest change that would have let it in. */
  counterfactual: Counterfactual | null
  /** The whole exchange: request, answer and decision trace. */
  exchange: ExchangeRecord
}

/** What to pick requests by: every field given must match. */
export interface RequestFilter {
  /** The dotted name, or a pattern over it. */
  endpoint?: string | RegExp
  status?: number | readonly number[]
  token?: ReceivedRequest['token']
  format?: ReceivedRequest['format']
  /** These arguments, with these values (others may be there too). */
  args?: Record<string, unknown>
  input?: unknown
  /** Whether a fault answered. */
  fault?: boolean
}

function errorMessage(record: ExchangeRecord): string | null {
  if (record.response.status === 200) return null
  return record.trace.outcome.message
}

/** A journal record as a test reads it. */
export function describeExchange(record: ExchangeRecord): ReceivedRequest {
  const sent = readSent(record)
  const call = sent.call ?? { args: {} }
  const query = Object.fromEntries(new URL(record.request.url).searchParams)
  const credential = record.trace.credential
  return {
    id: record.id,
    endpoint: record.trace.endpoint,
    method: record.request.method,
    url: record.request.url,
    status: record.response.status,
    format: sent.format,
    token: credential ? (credential.kind === 'unknown' ? 'unknown' : credential.kind) : 'unknown',
    tokenRefused: credential?.decision === 'refused' ? credential.reason : null,
    abilities: credential?.abilities ?? null,
    ...('input' in call ? { input: call.input } : {}),
    args: { ...call.args, ...query },
    message: errorMessage(record),
    fault: headerOf(record.response.headers, 'x-fault') ?? null,
    counterfactual:
      record.response.status === 200 ? null : (record.trace.outcome.counterfactual ?? null),
    exchange: record,
  }
}

/** The fields of `filter` that `request` does not match. */
export function mismatches(request: ReceivedRequest, filter: RequestFilter): string[] {
  const wrong: string[] = []
  const { endpoint, status, token, format, args, fault } = filter
  if (endpoint !== undefined) {
    const name = request.endpoint ?? ''
    if (typeof endpoint === 'string' ? name !== endpoint : !endpoint.test(name))
      wrong.push('endpoint')
  }
  if (status !== undefined) {
    const statuses = typeof status === 'number' ? [status] : status
    if (!statuses.includes(request.status)) wrong.push('status')
  }
  if (token !== undefined && request.token !== token) wrong.push('token')
  if (format !== undefined && request.format !== format) wrong.push('format')
  if (args !== undefined) {
    for (const [name, value] of Object.entries(args)) {
      if (!isDeepStrictEqual(request.args[name], value)) wrong.push(`args.${name}`)
    }
  }
  if ('input' in filter && !isDeepStrictEqual(request.input, filter.input)) wrong.push('input')
  if (fault !== undefined && (request.fault !== null) !== fault) wrong.push('fault')
  return wrong
}

export const matches = (request: ReceivedRequest, filter: RequestFilter) =>
  mismatches(request, filter).length === 0

/** How many of the requests a `toHaveReceived` expects: exactly, or at least / at most. */
export interface ReceivedExpectation extends Omit<RequestFilter, 'endpoint'> {
  /** Exactly this many; without it (and without `atLeast`/`atMost`), at least one. */
  times?: number
  atLeast?: number
  atMost?: number
}

function describeFilter(endpoint: string | RegExp, expected: ReceivedExpectation): string {
  const parts = [typeof endpoint === 'string' ? endpoint : String(endpoint)]
  const { status, token, format, args, fault } = expected
  if (status !== undefined) parts.push(`with status ${[status].flat().join(' or ')}`)
  if (token !== undefined) parts.push(`with ${token === 'none' ? 'no token' : `a ${token}`}`)
  if (format !== undefined) parts.push(`as ${format}`)
  if (args !== undefined) parts.push(`with arguments ${JSON.stringify(args)}`)
  if ('input' in expected) parts.push(`with input ${JSON.stringify(expected.input)}`)
  if (fault !== undefined) parts.push(fault ? 'answered by a fault' : 'not answered by a fault')
  return parts.join(' ')
}

const line = (request: ReceivedRequest, differs: string[]) => {
  const who = request.token === 'none' ? 'no token' : request.token
  const args = Object.keys(request.args).length > 0 ? ` args ${JSON.stringify(request.args)}` : ''
  const input = 'input' in request ? ` input ${JSON.stringify(request.input)}` : ''
  const message = request.message ? ` "${request.message}"` : ''
  const off =
    differs.length > 0 ? `  ← ${differs.join(', ')} differ${differs.length === 1 ? 's' : ''}` : ''
  const instead = request.counterfactual
    ? `\n      it would have passed with: ${request.counterfactual.sentence}`
    : ''
  return `  #${request.id} ${request.endpoint ?? request.url} → ${request.status}${message} (${who}, ${request.format})${args}${input}${off}${instead}`
}

/**
 * Whether the requests hold what `toHaveReceived(endpoint, expected)` asks, and the message
 * either way. When they do not, it lists the requests that did arrive, nearest first (the
 * fewest fields differing), the way WireMock's near-miss report does.
 */
export function checkReceived(
  requests: readonly ReceivedRequest[],
  endpoint: string | RegExp,
  expected: ReceivedExpectation = {},
): { pass: boolean; message: string } {
  const { times, atLeast, atMost, ...fields } = expected
  const filter: RequestFilter = { ...fields, endpoint }
  const found = requests.filter((request) => matches(request, filter))
  const count = found.length
  const pass =
    times !== undefined
      ? count === times
      : (atLeast === undefined ? atMost !== undefined || count >= 1 : count >= atLeast) &&
        (atMost === undefined || count <= atMost)
  const wanted =
    times !== undefined
      ? `${times}`
      : atLeast !== undefined && atMost !== undefined
        ? `${atLeast} to ${atMost}`
        : atMost !== undefined
          ? `at most ${atMost}`
          : `at least ${atLeast ?? 1}`
  const what = describeFilter(endpoint, fields)
  if (pass) {
    return { pass, message: `expected not ${wanted} request(s) to ${what}, received ${count}` }
  }
  const nearest = requests
    .map((request) => ({ request, differs: mismatches(request, filter) }))
    .sort((a, b) => a.differs.length - b.differs.length || b.request.id - a.request.id)
    .slice(0, 10)
  const arrived =
    requests.length === 0
      ? 'No request arrived at all.'
      : `Requests that did arrive, nearest first (${Math.min(10, requests.length)} of ${requests.length}):\n${nearest
          .map(({ request, differs }) => line(request, differs))
          .join('\n')}`
  return {
    pass,
    message: `expected ${wanted} request(s) to ${what}, received ${count}.\n${arrived}`,
  }
}
