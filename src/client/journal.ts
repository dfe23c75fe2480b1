import type { ExchangeRecord } from '../engine'
import type { Counterfactual } from '../engine/auth/counterfactual'
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
  /**
   * Whether a fault met the request (`true`, `false`), or which: its kind (`'network'`) or, for a
   * `status` fault, its status as text (`'503'`), as `x-fault` says.
   */
  fault?: boolean | string
  /** Request headers (names in any case), each equal to a text, a pattern or a matcher. */
  headers?: Record<string, unknown>
  /** The raw request body as text: equal, a pattern, or a matcher (`expect.stringContaining`). */
  body?: unknown
}

/** The keys a `RequestFilter` reads. */
export const FILTER_KEYS = [
  'endpoint',
  'status',
  'token',
  'format',
  'args',
  'input',
  'fault',
  'headers',
  'body',
] as const satisfies ReadonlyArray<keyof RequestFilter>

/** The token roles the journal names. */
export const TOKEN_KINDS = ['secret', 'authorization', 'none', 'unknown']

/**
 * Refuses a filter key it does not read (`endpont` would pick every request) and a token role
 * it does not name, saying what it takes.
 */
export function checkFilter(where: string, filter: object | undefined): void {
  if (filter === undefined) return
  if (typeof filter !== 'object' || filter === null) {
    throw new TypeError(`${where}: the filter must be an object of ${FILTER_KEYS.join(', ')}`)
  }
  const known: readonly string[] = FILTER_KEYS
  const unknown = Object.keys(filter).filter((key) => !known.includes(key))
  if (unknown.length > 0) {
    throw new TypeError(
      `${where}: unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => `\`${key}'`).join(', ')}; it reads ${known.join(', ')}`,
    )
  }
  const { token } = filter as RequestFilter
  if (token !== undefined && !TOKEN_KINDS.includes(token)) {
    throw new TypeError(
      `${where}: \`token' is the token's role, ${TOKEN_KINDS.join(', ')}; not ${JSON.stringify(token)}`,
    )
  }
}

/** An asymmetric matcher (`expect.any(Number)`, `expect.stringMatching(…)`, …) of Vitest or Jest. */
interface Asymmetric {
  asymmetricMatch(other: unknown): boolean
  toString(): string
}

const isAsymmetric = (value: unknown): value is Asymmetric =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function'

/**
 * Whether `actual` is `expected`: deep equality where plain values are given, the matcher's
 * own judgement wherever an asymmetric matcher stands (at any depth), a pattern's test for a
 * RegExp given where the value is a text.
 */
export function valueMatches(actual: unknown, expected: unknown): boolean {
  if (isAsymmetric(expected)) return expected.asymmetricMatch(actual)
  if (expected instanceof RegExp && typeof actual === 'string') return expected.test(actual)
  if (Object.is(actual, expected)) return true
  if (typeof expected !== 'object' || expected === null) return false
  if (typeof actual !== 'object' || actual === null) return false
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, index) => valueMatches(actual[index], item))
    )
  }
  if (Array.isArray(actual)) return false
  const want = Object.entries(expected)
  const have = actual as Record<string, unknown>
  return (
    want.length === Object.keys(have).length &&
    want.every(([key, value]) => key in have && valueMatches(have[key], value))
  )
}

/** A value as a near-miss line shows it: a matcher by its own name. */
export function shown(value: unknown): string {
  if (isAsymmetric(value)) return value.toString()
  if (value instanceof RegExp) return String(value)
  if (value === undefined) return 'nothing'
  const text = JSON.stringify(value, (_key, inner: unknown) =>
    isAsymmetric(inner) ? `<${inner.toString()}>` : inner instanceof RegExp ? String(inner) : inner,
  )
  return text.length > 120 ? `${text.slice(0, 117)}…` : text
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

/** One field of a filter that a request does not match: what was asked, what it had. */
export interface Mismatch {
  field: string
  expected: string
  received: string
}

/** The raw request body as text (`undefined` when there was none or it is binary). */
export function bodyText(request: ReceivedRequest): string | undefined {
  const body = request.exchange.request.body
  return body && body.encoding === 'text' ? body.data : undefined
}

/** The fields of `filter` that `request` does not match, each with what was asked and what it had. */
export function mismatches(request: ReceivedRequest, filter: RequestFilter): Mismatch[] {
  const wrong: Mismatch[] = []
  const differ = (field: string, expected: unknown, received: unknown) =>
    wrong.push({ field, expected: shown(expected), received: shown(received) })
  const { endpoint, status, token, format, args, fault, headers } = filter
  if (endpoint !== undefined) {
    const name = request.endpoint ?? ''
    if (typeof endpoint === 'string' ? name !== endpoint : !endpoint.test(name))
      differ('endpoint', endpoint, request.endpoint)
  }
  if (status !== undefined) {
    const statuses = typeof status === 'number' ? [status] : status
    if (!statuses.includes(request.status)) differ('status', status, request.status)
  }
  if (token !== undefined && request.token !== token) differ('token', token, request.token)
  if (format !== undefined && request.format !== format) differ('format', format, request.format)
  if (args !== undefined) {
    for (const [name, value] of Object.entries(args)) {
      if (!valueMatches(request.args[name], value))
        differ(`args.${name}`, value, request.args[name])
    }
  }
  if ('input' in filter && !valueMatches(request.input, filter.input))
    differ('input', filter.input, request.input)
  if (
    fault !== undefined &&
    (typeof fault === 'string' ? request.fault !== fault : (request.fault !== null) !== fault)
  ) {
    const asked = typeof fault === 'string' ? fault : fault ? 'a fault' : 'no fault'
    differ('fault', asked, request.fault ?? 'none')
  }
  if (headers !== undefined) {
    for (const [name, value] of Object.entries(headers)) {
      const had = headerOf(request.exchange.request.headers, name)
      if (!valueMatches(had, value)) differ(`headers.${name.toLowerCase()}`, value, had)
    }
  }
  if ('body' in filter && !valueMatches(bodyText(request), filter.body))
    differ('body', filter.body, bodyText(request))
  return wrong
}

export const matches = (request: ReceivedRequest, filter: RequestFilter) =>
  mismatches(request, filter).length === 0
