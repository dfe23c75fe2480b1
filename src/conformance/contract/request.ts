import { headerOf, loggedBytes, readSent } from '../../client/exchange'
import type { ExchangeRecord } from '../../engine'
import { mediaTypeOf } from '../../engine/wire/formats'
import { basePathOf, toBase64 } from '../../client/wire'
import type { CallStep, Format } from '../cases'
import { markEndpoint } from '../service-name'

/** A logged body's bytes. */
export const bodyBytes = loggedBytes

/** A content type's media type, lowercase; `null` for none. */
export const essence = (type: string | null) => mediaTypeOf(type) ?? null

/** Plain JSON: what a contract file can hold as it is (no MessagePack extensions, no bytes). */
export function isJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value)
  if (Array.isArray(value)) return value.every(isJson)
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.values(value as object).every(isJson)
  }
  return false
}

/** Endpoint names in `()` calls written with `{service}` for the service's own package. */
function markCalls(value: unknown, serviceName: string): unknown {
  if (!Array.isArray(value)) {
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, markCalls(v, serviceName)]),
      )
    }
    return value
  }
  if (value[0] === '%%') return value
  const marked = value.map((item) => markCalls(item, serviceName))
  if (value[0] === '()' && typeof value[1] === 'string') {
    marked[1] = markEndpoint(value[1], serviceName)
  }
  return marked
}

/** The query string as parameters: one given twice is a list. */
function queryOf(url: URL): Record<string, string | string[]> | undefined {
  const query: Record<string, string | string[]> = {}
  for (const [name, value] of url.searchParams) {
    const had = query[name]
    query[name] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value]
  }
  return Object.keys(query).length > 0 ? query : undefined
}

/** The call's part of a step, before tokens become roles: what was sent, and how. */
export type RequestPart = Omit<CallStep, 'expect' | 'bind' | 'token' | 'authorization'>

/**
 * A logged request as a call step: the endpoint, the body format, input and arguments read
 * from the body when it is one of the service's formats (kept raw otherwise), the query string,
 * and the content type and accept headers where they are not the format's own. A string says
 * why the request cannot be replayed.
 */
export function requestPart(
  record: ExchangeRecord,
  baseUrl: string,
  serviceName: string,
): RequestPart | string {
  const { request } = record
  const url = new URL(request.url)
  const base = new URL(baseUrl)
  const basePath = basePathOf(base)
  if (url.origin !== base.origin || !`${url.pathname}/`.startsWith(`${basePath}/`)) {
    return `it went to ${url.origin}${url.pathname}, outside the base URL ${baseUrl}`
  }
  const path = url.pathname.slice(basePath.length).replace(/^\//, '')
  if (path !== '' && !/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/.test(path)) {
    return `its path /${path} does not name an endpoint as a.b.c`
  }
  if (request.body?.truncated) {
    return `its body (${request.body.bytes} bytes) is longer than the exchange journal keeps`
  }
  const contentType = headerOf(request.headers, 'content-type') ?? null
  const accept = headerOf(request.headers, 'accept') ?? null
  const vnd = `application/vnd.${serviceName}`
  const bytes = bodyBytes(request.body)
  const text = request.body?.encoding === 'text' ? request.body.data : undefined
  const query = queryOf(url)
  const part: RequestPart = {
    call: markEndpoint(path.split('/').join('.'), serviceName),
    ...(request.method === 'POST' ? {} : { method: request.method }),
    ...(query ? { query } : {}),
  }
  // Read as the engine reads a call; what a contract file cannot hold as JSON is kept raw.
  const sent = readSent(record, serviceName)
  const format: Format = sent.format === 'none' || sent.format === 'other' ? 'text' : sent.format
  const read =
    sent.format !== 'other' &&
    sent.call &&
    isJson(sent.call.input ?? null) &&
    isJson(sent.call.args)
      ? sent.call
      : undefined
  const defaults: Record<Format, { type?: string; accept: string }> = {
    tuples: { type: `${vnd}+json`, accept: `${vnd}+json` },
    msgpack: { type: `${vnd}+msgpack`, accept: `${vnd}+msgpack` },
    json: { type: 'application/json', accept: 'application/json' },
    text: { type: 'text/plain', accept: 'text/plain' },
    query: { accept: 'application/json' },
  }
  if (read) {
    part.format = format
    if ('input' in read) part.input = markCalls(read.input, serviceName)
    if (Object.keys(read.args).length > 0)
      part.args = markCalls(read.args, serviceName) as Record<string, unknown>
  } else {
    part.format = 'text'
    if (text !== undefined) part.body = text
    else if (bytes.length > 0) part.bodyBase64 = toBase64(bytes)
  }
  // The content type the runner sends for this format: tuples always, JSON and text with an input.
  const implied =
    read && (format === 'tuples' || format === 'msgpack' || 'input' in part)
      ? defaults[format].type
      : undefined
  if (contentType !== (implied ?? null)) part.contentType = markMediaTypes(contentType, serviceName)
  if (accept !== defaults[part.format].accept) part.accept = markMediaTypes(accept, serviceName)
  return part
}

/** `application/vnd.<name>+json` written with `{service}`, in a content type or accept. */
function markMediaTypes(value: string | null, serviceName: string): string | null {
  return value === null ? null : value.split(`vnd.${serviceName}+`).join('vnd.{service}+')
}
