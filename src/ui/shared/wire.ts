import { decode, encode } from '@msgpack/msgpack'
import type { Json } from '../../engine'
import { callTuples } from '../../client/wire'

/**
 * One endpoint call as a person composes it (an input and named arguments, written once) and
 * the HTTP request it becomes in each body format, exactly as a real client sends it.
 */

/** How the call travels: a body format, or every argument in the query string. */
export type BodyFormat = 'text' | 'json' | 'tuples' | 'msgpack' | 'query'

export const BODY_FORMATS: readonly BodyFormat[] = ['text', 'json', 'tuples', 'msgpack', 'query']

export interface CallDraft {
  /** Dotted name: `type.string.reverse` is called at `<baseUrl>/type/string/reverse`. */
  endpoint: string
  /** Sent as `authorization: Bearer <token>` when not empty. */
  token: string
  format: BodyFormat
  /** The `accept` header; empty to leave it out (the engine answers in the request's family). */
  accept: string
  /** The input; `undefined` sends none. */
  input?: Json
  /** Named arguments, in order. */
  args: ReadonlyArray<readonly [string, Json]>
  /**
   * A body written by hand, sent as it is instead of the one built from input and arguments
   * (the raw tuple editor); bytes for MessagePack.
   */
  rawBody?: string | Uint8Array
}

/** The HTTP request a draft becomes. */
export interface HttpPlan {
  method: 'POST'
  url: string
  headers: Array<[string, string]>
  body: string | Uint8Array | null
}

export function mediaTypeOf(format: BodyFormat, serviceName: string): string | null {
  switch (format) {
    case 'text':
      return 'text/plain'
    case 'json':
      return 'application/json'
    case 'tuples':
      return `application/vnd.${serviceName}+json`
    case 'msgpack':
      return `application/vnd.${serviceName}+msgpack`
    case 'query':
      return null
  }
}

/** The tuples of `application/vnd.<service>+json` for an input and arguments. */
export const toTuples = (input: Json | undefined, args: CallDraft['args']): Json[] =>
  callTuples(input, args)

/** An argument's value as query-string text: strings as they are, anything else as JSON. */
export const queryValue = (value: Json): string =>
  typeof value === 'string' ? value : JSON.stringify(value)

/** The URL of an endpoint, with the given arguments in its query string. */
export function endpointUrl(
  baseUrl: string,
  endpoint: string,
  query: CallDraft['args'] = [],
): string {
  const search = new URLSearchParams(query.map(([name, value]) => [name, queryValue(value)]))
  const path = endpoint.trim().split('.').map(encodeURIComponent).join('/')
  return `${baseUrl}/${path}${query.length ? `?${search}` : ''}`
}

/**
 * The request for a draft. In the tuple formats everything travels in the body; in text and
 * JSON the input is the body and the arguments go in the query string; in `query` there is
 * no body at all (and no input).
 */
export function planCall(baseUrl: string, serviceName: string, draft: CallDraft): HttpPlan {
  const headers: Array<[string, string]> = []
  const type = mediaTypeOf(draft.format, serviceName)
  if (type) headers.push(['content-type', type])
  if (draft.accept) headers.push(['accept', draft.accept])
  if (draft.token.trim()) headers.push(['authorization', `Bearer ${draft.token.trim()}`])
  const inBody = draft.format === 'tuples' || draft.format === 'msgpack'
  const url = endpointUrl(baseUrl, draft.endpoint, inBody ? [] : draft.args)
  return { method: 'POST', url, headers, body: draft.rawBody ?? bodyOf(draft) }
}

function bodyOf({ format, input, args }: CallDraft): string | Uint8Array | null {
  switch (format) {
    case 'text':
      return input === undefined ? null : typeof input === 'string' ? input : JSON.stringify(input)
    case 'json':
      return input === undefined ? null : JSON.stringify(input)
    case 'tuples':
      return JSON.stringify(toTuples(input, args))
    case 'msgpack':
      return encode(toTuples(input, args))
    case 'query':
      return null
  }
}

/** A shell-safe single-quoted string. */
const shellQuote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`

/** The request as a `curl` command line. */
export function asCurl(plan: HttpPlan): string {
  const lines = [`curl -X POST ${shellQuote(plan.url)}`]
  for (const [name, value] of plan.headers) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`)
  if (typeof plan.body === 'string') lines.push(`--data-binary ${shellQuote(plan.body)}`)
  if (plan.body instanceof Uint8Array) {
    const escaped = [...plan.body].map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`)
    return `printf '${escaped.join('')}' |\n  ${lines.join(' \\\n  ')} \\\n  --data-binary @-`
  }
  return lines.join(' \\\n  ')
}

/** The request as a `fetch` call. */
export function asFetch(plan: HttpPlan): string {
  const headers = Object.fromEntries(plan.headers)
  const init = [
    `  method: 'POST',`,
    `  headers: ${JSON.stringify(headers, null, 2).replaceAll('\n', '\n  ')},`,
  ]
  if (typeof plan.body === 'string') init.push(`  body: ${JSON.stringify(plan.body)},`)
  if (plan.body instanceof Uint8Array) {
    init.push(`  body: new Uint8Array([${[...plan.body].map((b) => `0x${hex2(b)}`).join(', ')}]),`)
  }
  return `const response = await fetch(${JSON.stringify(plan.url)}, {\n${init.join('\n')}\n})`
}

/**
 * The call as the real clients write it: the endpoint as a path of properties, the input
 * first, the arguments as one object (`client.type.string.truncate("hello", { length: 2 })`).
 */
export function asClient(draft: Pick<CallDraft, 'endpoint' | 'input' | 'args'>): string {
  const path = draft.endpoint
    .trim()
    .split('.')
    .map((part) => (/^[A-Za-z_$][\w$]*$/.test(part) ? `.${part}` : `[${JSON.stringify(part)}]`))
    .join('')
  const params: string[] = []
  if (draft.input !== undefined) params.push(JSON.stringify(draft.input))
  if (draft.args.length > 0) {
    const members = draft.args.map(
      ([name, value]) =>
        `${/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)}: ${JSON.stringify(value)}`,
    )
    params.push(`{ ${members.join(', ')} }`)
  }
  return `await client${path}(${params.join(', ')})`
}

/** What came back, with everything a client can see. */
export interface WireResult {
  status: number
  /** The reason phrase (service workers and many servers send none, so it is looked up). */
  statusText: string
  headers: Array<[string, string]>
  contentType: string
  bytes: Uint8Array
  /** Real milliseconds from send to the whole body read. */
  durationMs: number
  /** What finds this request's exchange in the log. */
  sent: SentRequest
}

/** A request the page sent, enough to find its exchange in the exchange log. */
export interface SentRequest {
  method: string
  url: string
  status: number
  /** Real time just before it was sent, in milliseconds since the Unix epoch. */
  sentAt: number
}

/** Sends a planned request through `fetch`, as any client in the page would. */
export async function sendPlan(plan: HttpPlan): Promise<WireResult> {
  const started = performance.now()
  const sentAt = Date.now()
  const response = await fetch(plan.url, {
    method: plan.method,
    headers: plan.headers,
    body:
      plan.body === null
        ? undefined
        : plan.body instanceof Uint8Array
          ? new Uint8Array(plan.body)
          : plan.body,
  })
  const bytes = new Uint8Array(await response.arrayBuffer())
  return {
    status: response.status,
    statusText: response.statusText || reasonPhrase(response.status),
    headers: [...response.headers],
    contentType: response.headers.get('content-type') ?? '',
    bytes,
    durationMs: performance.now() - started,
    sent: { method: plan.method, url: new URL(plan.url).href, status: response.status, sentAt },
  }
}

const REASONS: Record<number, string> = {
  200: 'OK',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
}

/** The standard reason phrase of an HTTP status. */
export const reasonPhrase = (status: number): string => REASONS[status] ?? ''

const hex2 = (byte: number) => byte.toString(16).padStart(2, '0')

/** Bytes as spaced hex pairs, sixteen to a line. */
export function toHex(bytes: Uint8Array): string {
  const lines: string[] = []
  for (let i = 0; i < bytes.length; i += 16) {
    lines.push([...bytes.subarray(i, i + 16)].map(hex2).join(' '))
  }
  return lines.join('\n')
}

/** A body as a person reads it: text, or MessagePack decoded (and its bytes in hex). */
export interface ReadableBody {
  /** The body as text, as it travelled (for MessagePack, empty). */
  raw: string
  /** Pretty-printed when it is JSON or MessagePack; otherwise the text again. */
  pretty: string
  /** For MessagePack: the bytes in hex. */
  hex?: string
  /** The decoded value, when it is JSON or MessagePack. */
  value?: unknown
}

export function readBody(bytes: Uint8Array, contentType: string): ReadableBody {
  if (/msgpack/i.test(contentType)) {
    try {
      const value = decode(bytes)
      return { raw: '', pretty: JSON.stringify(value, null, 2), hex: toHex(bytes), value }
    } catch (error) {
      return { raw: '', pretty: `not valid MessagePack: ${String(error)}`, hex: toHex(bytes) }
    }
  }
  const raw = new TextDecoder().decode(bytes)
  if (/json/i.test(contentType)) {
    try {
      const value: unknown = JSON.parse(raw)
      return { raw, pretty: JSON.stringify(value, null, 2), value }
    } catch {
      // Shown raw.
    }
  }
  return { raw, pretty: raw }
}

/** What an answer says: the value it carries, or the engine's error message. */
export interface Said {
  /** Present when the answer carries a value (`[["<<", value]]`); it may be `null`. */
  value?: unknown
  error?: string
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const messageIn = (value: unknown): string | undefined =>
  isRecord(value) && typeof value.message === 'string' ? value.message : undefined

/** Whether a content type is one of the tuple formats (`vnd.<service>+json` or `+msgpack`). */
export const isTupleType = (contentType: string): boolean =>
  /^application\/vnd\.[^+;]+\+(json|msgpack)/i.test(contentType)

/**
 * Reads an answer as the wire wrote it: in the tuple formats, `[["<<", value]]` or
 * `[["!!", {"message": …}]]`; in JSON, `{"error": {"message": …}}` when it `failed`. Anything
 * else says nothing here, and the caller shows the body itself.
 */
export function saidBy(body: ReadableBody, contentType: string, failed: boolean): Said {
  const { value } = body
  if (isTupleType(contentType) && Array.isArray(value)) {
    for (const tuple of value) {
      if (!Array.isArray(tuple)) continue
      if (tuple[0] === '<<') return { value: tuple[1] }
      const error = tuple[0] === '!!' ? messageIn(tuple[1]) : undefined
      if (error !== undefined) return { error }
    }
    return {}
  }
  const error = failed && isRecord(value) ? messageIn(value.error) : undefined
  return error === undefined ? {} : { error }
}

export { loggedBytes } from '../../client/exchange'
