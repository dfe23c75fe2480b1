/**
 * Comparing the upstream's answer with the engine's, as contracts compare an answer with what
 * was recorded (decision 036): the status; the body decoded per its format, tokens and cursors
 * as their roles; the headers that carry meaning — `content-type` by its media type, `x-cursor`
 * by presence (none, empty, a cursor), `retry-after` by pattern. Tokens and cursors made on both
 * sides are paired here, as they are met.
 */
import { readAnswer, type Decoded } from '../client/answer'
import type { Expect } from '../conformance/cases'
import { compareAnswer } from '../conformance/compare'
import { TOKEN_SHAPE } from '../conformance/contract/answer'
import { mediaTypeOf } from '../engine/wire/formats'
import type { Twins } from './twins'

/** An answer as the shadow reads it: headers by lowercase name, the body's content decoded. */
export interface Seen {
  status: number
  headers: Record<string, string>
  body: Uint8Array
  /**
   * When `body` is only the first bytes of a longer answer (`COMPARED_BODY_BYTES`): the whole
   * answer's size in bytes, as it came.
   */
  cutFrom?: number
}

/** A difference between the two answers: what differed, the upstream's side, the engine's. */
export interface AnswerDifference {
  what: string
  upstream: string
  engine: string
}

export interface CompareContext {
  /** The endpoint the request called (`auth.create` answers are paired). */
  endpoint: string | null
  /** Unix seconds, to read times in messages as times. */
  now: number
  /**
   * Pair what both sides made (the default); off when comparing two answers of the upstream's
   * own (the noise check).
   */
  pair?: boolean
}

const DAY = 24 * 3600
/** A Unix time in seconds, as messages print them (`expired at 1767225600`). */
const TIME = /\b\d{9,11}(?:\.\d+)?\b/g

/** A message with each Unix time within days of now as `{time}`: the two clocks differ. */
function withoutTimes(message: string, now: number): string {
  return message.replace(TIME, (text) => (Math.abs(Number(text) - now) < 3 * DAY ? '{time}' : text))
}

/** Numbers long enough to be times, or spans of time counted from now. */
const LONG_NUMBER = /\d{9,}(?:\.\d+)?/g

/**
 * The engine's message with each long number that is within two of the upstream's at the same
 * place written as the upstream's: a time, or a span counted from now (`ttl` must be at most
 * the seconds left to the last date), read on two clocks a moment apart.
 */
function alignNumbers(upstream: string, engine: string): string {
  const theirs = upstream.match(LONG_NUMBER) ?? []
  const ours = engine.match(LONG_NUMBER) ?? []
  if (theirs.length === 0 || theirs.length !== ours.length) return engine
  let i = 0
  return engine.replace(LONG_NUMBER, (text) => {
    const other = theirs[i++]!
    return Math.abs(Number(other) - Number(text)) <= 2 ? other : text
  })
}

function decoded(answer: Seen): Decoded | undefined {
  try {
    return readAnswer(answer.body, answer.headers['content-type'], answer.status)
  } catch {
    return undefined
  }
}

/** Something the upstream made that the engine made too, at the same place of both answers. */
const looksMade = (text: string) => /^\S{8,}$/.test(text)

/**
 * Pairs strings made on both sides at the same place of two answers (an authorization minted
 * inside a composition): the engine's is one of its own tokens, the upstream's a token-like
 * string neither side knows yet.
 */
function pairInside(upstream: unknown, engine: unknown, twins: Twins): void {
  if (typeof upstream === 'string' && typeof engine === 'string') {
    if (
      upstream !== engine &&
      TOKEN_SHAPE.test(engine) &&
      looksMade(upstream) &&
      !twins.roleOf(upstream) &&
      !twins.roleOf(engine)
    ) {
      twins.pair(upstream, engine, 'auth')
    }
    return
  }
  if (Array.isArray(upstream) && Array.isArray(engine)) {
    upstream.forEach((item, i) => pairInside(item, engine[i], twins))
    return
  }
  if (upstream && engine && typeof upstream === 'object' && typeof engine === 'object') {
    for (const [key, item] of Object.entries(upstream)) {
      pairInside(item, (engine as Record<string, unknown>)[key], twins)
    }
  }
}

/** `x-cursor` by what it says: no header, the last page (empty), or a cursor. */
function cursorRule(value: string | undefined): string | null | { match: string } {
  if (value === undefined) return null
  return value === '' ? '' : { match: '^.+$' }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** What the engine's answer must be to agree with the upstream's, as a contract step's `expect`. */
function expectationOf(answer: Seen, read: Decoded | undefined, twins: Twins, now: number): Expect {
  const expect: Expect = { status: answer.status }
  if (read?.ok) expect.result = twins.normalize(read.value)
  else if (read) expect.message = withoutTimes(String(twins.normalize(read.message ?? '')), now)
  const type = mediaTypeOf(answer.headers['content-type'])
  expect.headers = {
    'content-type': type === undefined ? null : { match: `^${escapeRegExp(type)}(\\s*;.*)?$` },
    'x-cursor': cursorRule(answer.headers['x-cursor']),
    'retry-after': answer.headers['retry-after'] === undefined ? null : { match: '^\\d+$' },
  }
  return expect
}

/**
 * Where the engine's answer differs from the upstream's, by the rules above; none when they
 * agree. Pairs (unless `pair: false`) an `auth.create` answered on both sides, tokens made
 * inside both answers at the same place, and a cursor both gave.
 */
/** The differences, and each answer as read (absent when it could not be). */
export interface Compared {
  differences: AnswerDifference[]
  upstream?: Decoded
  engine?: Decoded
}

export function compareAnswers(
  upstream: Seen,
  engine: Seen,
  twins: Twins,
  { endpoint, now, pair = true }: CompareContext,
): Compared {
  const up = decoded(upstream)
  const down = decoded(engine)
  if (pair) {
    if (up?.ok && down?.ok) {
      if (
        endpoint === 'auth.create' &&
        typeof up.value === 'string' &&
        typeof down.value === 'string'
      ) {
        twins.pair(up.value, down.value, 'auth')
      } else {
        pairInside(up.value, down.value, twins)
      }
    }
    const [a, b] = [upstream.headers['x-cursor'], engine.headers['x-cursor']]
    if (a && b) twins.pair(a, b, 'cursor')
  }
  if (up === undefined || down === undefined) {
    const same =
      upstream.status === engine.status &&
      upstream.body.length === engine.body.length &&
      upstream.body.every((byte, i) => byte === engine.body[i])
    const read = { ...(up ? { upstream: up } : {}), ...(down ? { engine: down } : {}) }
    if (same) return { differences: [], ...read }
    const unread = (side: Seen, read: Decoded | undefined) =>
      read
        ? `status ${side.status}, read`
        : `status ${side.status}, ${side.body.length} bytes it could not read`
    return {
      differences: [
        { what: 'answer', upstream: unread(upstream, up), engine: unread(engine, down) },
      ],
      ...read,
    }
  }
  const expect = expectationOf(upstream, up, twins, now)
  const message = withoutTimes(String(twins.normalize(down.message ?? '')), now)
  const normalized: Decoded = down.ok
    ? { ...down, value: twins.normalize(down.value) }
    : { ...down, message: alignNumbers(expect.message ?? '', message) }
  const answer = { status: engine.status, headers: engine.headers, body: '' }
  const differences = compareAnswer(expect, answer, normalized).map(({ what, expected, actual }) =>
    described({ what, upstream: expected, engine: actual }, upstream, engine, twins),
  )
  return { differences, upstream: up, engine: down }
}

/** How a header reads in a report: `x-cursor` as what it says, the others as they came. */
function described(
  difference: AnswerDifference,
  upstream: Seen,
  engine: Seen,
  twins: Twins,
): AnswerDifference {
  const header = /^header (.+)$/.exec(difference.what)?.[1]
  if (header === undefined) return difference
  const say = (side: Seen) => {
    const value = side.headers[header]
    if (value === undefined) return '(absent)'
    if (header === 'x-cursor') return value === '' ? 'empty (the last page)' : 'a cursor'
    return JSON.stringify(twins.normalize(value))
  }
  return { what: difference.what, upstream: say(upstream), engine: say(engine) }
}

/**
 * Where the engine's answer differs from the first bytes of a longer answer of the upstream's
 * (`upstream.cutFrom`), which cannot be decoded: the status, the headers that carry meaning, as
 * `compareAnswers` compares them, and the body's first bytes as they came (the engine's cut to
 * as many), every known token or cursor as its role on both sides. Nothing is paired.
 */
export function comparePrefix(upstream: Seen, engine: Seen, twins: Twins, now: number): Compared {
  if (upstream.status !== engine.status) {
    const status = { upstream: String(upstream.status), engine: String(engine.status) }
    return { differences: [{ what: 'status', ...status }] }
  }
  const expect = expectationOf(upstream, undefined, twins, now)
  const answer = { status: engine.status, headers: engine.headers, body: '' }
  const read: Decoded = { ok: true }
  const differences = compareAnswer(expect, answer, read).map(({ what, expected, actual }) =>
    described({ what, upstream: expected, engine: actual }, upstream, engine, twins),
  )
  const length = upstream.body.length
  const mine = engine.body.subarray(0, length)
  // Decoded, and tokens read as roles, only when the bytes themselves differ.
  const text = (bytes: Uint8Array) => String(twins.normalize(new TextDecoder().decode(bytes)))
  const same = mine.length === length && mine.every((byte, i) => byte === upstream.body[i])
  if (!same && (mine.length < length || text(upstream.body) !== text(mine))) {
    let at = 0
    while (at < mine.length && mine[at] === upstream.body[at]) at++
    differences.push({
      what: `answer's first ${length} bytes`,
      upstream: `${upstream.cutFrom ?? length} bytes in all`,
      engine:
        mine.length < length
          ? `${engine.body.length} bytes in all`
          : `${engine.body.length} bytes in all, the first difference at byte ${at}`,
    })
  }
  return { differences }
}
