/**
 * One endpoint call as a person composes it (an input and named arguments, written once) and
 * the HTTP request it becomes in each body format, exactly as a real client sends it.
 */
import { encode } from '@msgpack/msgpack'
import type { Json } from '../../engine'
import { callTuples } from '../../client/wire'

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

/** The content type a body format is sent with; `null` for `query`, which has no body. */
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
