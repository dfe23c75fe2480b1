// A watch, as the account keeps it (in its meta, under `watches`, so that an export carries it)
// and as an import reads it: one shape, one reader.

import { isTime } from '../clock'
import type { Json } from '../store'

/**
 * One call to simulate. Either `input` and `args` (values as in the tuple body
 * `application/vnd.<service>+json`: a bare JSON value is data, `["%%", x]` a literal, `["{}", …]`
 * a composition) with an optional `query`, or the body as sent: `body` (text) or `bodyBase64`
 * with its `contentType`, and `query`.
 */
export interface SimulateCall {
  endpoint: string
  input?: Json
  args?: Record<string, Json>
  /** Arguments as a query string (`length=3&bucket=users`), read as text as the wire reads them. */
  query?: string
  body?: string
  bodyBase64?: string
  contentType?: string
}

/** Where the account keeps its watches. */
export const WATCHES = 'watches'

/** The most watches an account keeps. */
export const MAX_WATCHES = 100

/** The longest token a watch keeps, and the most text its call may take as JSON. */
const MAX_TOKEN = 8192
const MAX_CALL_JSON = 16 * 1024
const MAX_LABEL = 200
const ID = /^w_[A-Za-z0-9_-]{1,32}$/

/**
 * A pinned assertion: that `token` is let in (`allowed`) or refused (`refused`) by `call`. It
 * is asked again of the engine's own rules whenever it is read, at the clock's now.
 */
export interface Watch {
  id: string
  /** The token watched: a secret key or an authorization, kept with the account. */
  token: string
  call: SimulateCall
  expect: 'allowed' | 'refused'
  /** What the person calls the token (`the notes token`); never the token itself. */
  label: string | null
  /** Unix seconds on the virtual clock. */
  createdAt: number
}

const isObject = (value: unknown): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The problem with one watch, in words that name the field (`call.endpoint must be …`), or
 * `undefined` when it is one. `stored` also checks what the account adds (id, time).
 */
export function watchProblem(value: unknown, stored: boolean): string | undefined {
  if (!isObject(value)) return 'must be an object'
  const { token, call, expect, label } = value
  if (typeof token !== 'string' || token.trim() === '' || token.length > MAX_TOKEN) {
    return `token must be the token watched, as text of 1 to ${MAX_TOKEN} characters`
  }
  if (
    !isObject(call) ||
    typeof call.endpoint !== 'string' ||
    !/^[^\s/?#]{1,256}$/.test(call.endpoint)
  ) {
    return 'call must be {"endpoint": "keyv.get", "args": {…}} with the name of an endpoint'
  }
  for (const field of Object.keys(call)) {
    if (!['endpoint', 'input', 'args', 'query', 'body', 'contentType'].includes(field)) {
      return `call.${field} is not part of a call: give endpoint, input and args (or body, contentType and query)`
    }
  }
  if (call.args !== undefined && !isObject(call.args)) return 'call.args must be an object'
  for (const field of ['query', 'body', 'contentType'] as const) {
    if (call[field] !== undefined && typeof call[field] !== 'string') {
      return `call.${field} must be text`
    }
  }
  if (JSON.stringify(call).length > MAX_CALL_JSON) {
    return `call takes more than ${MAX_CALL_JSON} characters as JSON`
  }
  if (expect !== 'allowed' && expect !== 'refused') return 'expect must be "allowed" or "refused"'
  if (
    label !== undefined &&
    label !== null &&
    (typeof label !== 'string' || label.length > MAX_LABEL)
  ) {
    return `label must be text of at most ${MAX_LABEL} characters`
  }
  if (!stored) return undefined
  if (typeof value.id !== 'string' || !ID.test(value.id))
    return 'id must be w_ and 1 to 32 of A-Z a-z 0-9 - _'
  if (typeof value.createdAt !== 'number' || !isTime(value.createdAt)) {
    return 'createdAt must be a time in Unix seconds'
  }
  return undefined
}

/**
 * The watches as the account keeps them, each checked; throws `fail(path, problem)` at the first
 * that is not one. What an import reads, and what the account reads back.
 */
export function readWatches(
  value: unknown,
  fail: (path: string, problem: string) => never,
): Watch[] {
  if (!Array.isArray(value)) return fail('', 'must be an array of watches')
  if (value.length > MAX_WATCHES) {
    return fail('', `holds ${value.length} watches, more than an account keeps (${MAX_WATCHES})`)
  }
  const ids = new Set<string>()
  value.forEach((watch, i) => {
    const problem = watchProblem(watch, true)
    if (problem) fail(`[${i}]`, problem)
    const { id } = watch as Watch
    if (ids.has(id)) fail(`[${i}].id`, `repeats the id ${id}`)
    ids.add(id)
  })
  return (value as Watch[]).map((watch) => ({
    id: watch.id,
    token: watch.token,
    call: watch.call,
    expect: watch.expect,
    label: watch.label ?? null,
    createdAt: watch.createdAt,
  }))
}
