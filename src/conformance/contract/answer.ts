import type { ExchangeRecord } from '../../engine'
import { toBase64 } from '../../client/wire'
import type { Expect, Matcher } from '../cases'
import { decodeAnswer, pointerTo, typeOf, type Decoded } from '../compare'
import { markServiceName, SERVICE } from '../service-name'
import { bodyBytes, essence, isJson } from './request'

/** What the recorder knows while it reads answers: the names tokens and cursors are bound to. */
export interface Bindings {
  /** A token or cursor, as sent or answered → the name it is bound to. */
  roleOf: Map<string, string>
  /** Every token and cursor seen: none may appear in the contract. */
  volatile: Set<string>
  /** A new name for a value an answer binds: `auth2`, `cursor1`. */
  name(kind: 'auth' | 'cursor'): string
  note(text: string): void
}

/** An authorization as the service makes them: a payload and a signature, base64url. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{43}$/
/** Stands for an authorization inside an answer, where a matcher checks it by type. */
const AN_AUTHORIZATION = '(an authorization)'
const DAY = 24 * 3600

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const escapeKeepingService = (text: string) => text.split(SERVICE).map(escapeRegExp).join(SERVICE)

export const labelOf = (r: ExchangeRecord) =>
  `exchange ${r.id} (${r.trace.endpoint ?? new URL(r.request.url).pathname})`

/**
 * What a recorded answer becomes in its step: the status, the value (known tokens bound, new
 * ones matched by type) or the message (the service's name as `{service}`, the time as a
 * pattern), the headers a client reads (by pattern where they vary), and what to bind.
 */
export function expectationOf(
  r: ExchangeRecord,
  serviceName: string,
  bindings: Bindings,
): { expect: Expect; bind?: { as: string; from: string } } {
  const { response } = r
  const expect: Expect = { status: response.status }
  let bind: { as: string; from: string } | undefined
  const headers = Object.fromEntries(response.headers.map(([k, v]) => [k.toLowerCase(), v]))
  let decoded: Decoded | undefined
  try {
    decoded = decodeAnswer({
      status: response.status,
      headers,
      body: toBase64(bodyBytes(response.body)),
    })
  } catch {
    bindings.note(`${labelOf(r)}: its answer could not be read, so only its status is kept`)
  }
  if (decoded?.ok) {
    const value = decoded.value
    if (r.trace.endpoint === 'auth.create' && typeof value === 'string') {
      const as = bindings.name('auth')
      expect.resultType = 'string'
      bind = { as, from: 'result' }
      bindings.roleOf.set(value, as)
      bindings.volatile.add(value)
    } else if (isJson(value)) {
      const matchers: Record<string, Matcher> = {}
      const mints = r.trace.calls.some(
        (c) => c.endpoint === 'auth.create' && c.decision === 'allowed',
      )
      expect.result = answerValue(bindings, value, mints, '', matchers)
      if (Object.keys(matchers).length > 0) expect.matchers = matchers
    } else {
      expect.resultType = typeOf(value)
      bindings.note(
        `${labelOf(r)}: its answer holds values JSON cannot (MessagePack extensions), so only its type is kept`,
      )
    }
  } else if (decoded) {
    const message = messageOf(decoded.message ?? '', r.at, serviceName)
    if (message.pattern) expect.messageMatch = message.pattern
    else expect.message = message.text
  }
  const type = essence(headers['content-type'] ?? null)
  const marked: Expect['headers'] = {}
  if (type) {
    const pattern = escapeKeepingService(type.split(`vnd.${serviceName}+`).join(`vnd.${SERVICE}+`))
    marked['content-type'] = { match: `^${pattern}(\\s*;.*)?$` }
  }
  const cursor = headers['x-cursor']
  if (cursor === '') marked['x-cursor'] = ''
  else if (cursor !== undefined) {
    marked['x-cursor'] = { match: '^.+$' }
    if (!bind) {
      const as = bindings.name('cursor')
      bind = { as, from: 'header:x-cursor' }
      bindings.roleOf.set(cursor, as)
    }
    bindings.volatile.add(cursor)
  }
  if (headers['x-rate-limit'] !== undefined)
    marked['x-rate-limit'] = { match: '^\\d+;window=\\d+$' }
  if (headers.allow !== undefined) marked.allow = headers.allow
  if (headers['retry-after'] !== undefined) marked['retry-after'] = { match: '^\\d+$' }
  expect.headers = marked
  return { expect, ...(bind ? { bind } : {}) }
}

/** An answer's value with known tokens bound and new ones (made inside it) matched by type. */
function answerValue(
  bindings: Bindings,
  value: unknown,
  mints: boolean,
  pointer: string,
  matchers: Record<string, Matcher>,
): unknown {
  if (typeof value === 'string') {
    const role = bindings.roleOf.get(value)
    if (role) return `$${role}`
    if (mints && TOKEN_SHAPE.test(value)) {
      matchers[pointer] = { type: 'string' }
      bindings.volatile.add(value)
      return AN_AUTHORIZATION
    }
    return value
  }
  if (Array.isArray(value)) {
    return value.map((item, i) =>
      answerValue(bindings, item, mints, pointerTo(pointer, i), matchers),
    )
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        answerValue(bindings, v, mints, pointerTo(pointer, k), matchers),
      ]),
    )
  }
  return value
}

/**
 * An error message with the service's name as `{service}`; a pattern instead when it holds
 * the time (a Unix time within days of the exchange), which differs from run to run.
 */
function messageOf(
  message: string,
  at: number,
  serviceName: string,
): { text: string; pattern?: string } {
  const text = markServiceName(message, serviceName)
  const times = [...text.matchAll(/\b\d{9,11}\b/g)].filter(
    (m) => Math.abs(Number(m[0]) - at) < 3 * DAY,
  )
  if (times.length === 0) return { text }
  let pattern = '^'
  let from = 0
  for (const m of times) {
    pattern += `${escapeKeepingService(text.slice(from, m.index))}\\d+`
    from = m.index + m[0].length
  }
  return { text, pattern: `${pattern}${escapeKeepingService(text.slice(from))}$` }
}
