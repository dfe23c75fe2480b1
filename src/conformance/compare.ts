import { readAnswer, type Decoded } from '../client/answer'
import { fromBase64 } from '../client/wire'
import type { Expect, JsonType, Matcher } from './cases'

/** One thing about an answer that is not what a step expects. */
export interface Difference {
  /** `status`, `message`, `result`, `result at /0/title`, `header x-cursor`, `answer`, `step`. */
  what: string
  expected: string
  actual: string
  /** For an answer that refused what was expected to pass: what would have let it in. */
  counterfactual?: string
}

export type { Decoded }

interface Answer {
  status: number
  headers: Record<string, string>
  /** Base64 of the body's bytes. */
  body: string
}

export const show = (value: unknown) => JSON.stringify(value) ?? String(value)

export function typeOf(value: unknown): JsonType {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  const type = typeof value
  return type === 'string' || type === 'number' || type === 'boolean' ? type : 'object'
}

/** The answer's value or error message, read the way its content type says. */
export const decodeAnswer = (response: Answer): Decoded =>
  readAnswer(fromBase64(response.body), response.headers['content-type'], response.status)

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** A JSON Pointer (RFC 6901) one level down. */
export const pointerTo = (pointer: string, key: string | number) =>
  `${pointer}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`

const MAX_RESULT_DIFFERENCES = 12

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

const isPlain = (value: object) => [Object.prototype, null].includes(Object.getPrototypeOf(value))

/**
 * Deep equality of decoded answers: JSON values, and what MessagePack adds (bytes, times,
 * extensions), each equal only to its own kind.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => sameValue(item, b[i]))
    )
  }
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return (
      a instanceof Uint8Array &&
      b instanceof Uint8Array &&
      a.length === b.length &&
      a.every((byte, i) => byte === b[i])
    )
  }
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && Object.is(a.getTime(), b.getTime())
  }
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b) && !(isPlain(a) && isPlain(b))) {
    return false
  }
  const keys = Object.keys(a)
  const other = b as Record<string, unknown>
  return (
    keys.length === Object.keys(b).length &&
    keys.every(
      (key) => Object.hasOwn(b, key) && sameValue((a as Record<string, unknown>)[key], other[key]),
    )
  )
}

function matches(rule: Matcher, actual: unknown): boolean {
  if (actual === undefined) return false
  if ('type' in rule) return typeOf(actual) === rule.type
  return typeof actual === 'string' && new RegExp(rule.regex).test(actual)
}

/**
 * Where `actual` differs from `expected`, by JSON Pointer: the smallest parts that differ,
 * so a changed field in a long answer reads as that field. A matcher at a pointer compares
 * by type or pattern there instead.
 */
function resultDifferences(
  expected: unknown,
  actual: unknown,
  matchers: Record<string, Matcher>,
  pointer: string,
  out: Difference[],
): void {
  const what = pointer === '' ? 'result' : `result at ${pointer}`
  const rule = matchers[pointer]
  if (rule) {
    if (!matches(rule, actual)) {
      const wanted = 'type' in rule ? `a ${rule.type}` : `a string matching /${rule.regex}/`
      out.push({ what, expected: wanted, actual: actual === undefined ? '(absent)' : show(actual) })
    }
    return
  }
  if (sameValue(expected, actual)) return
  const absent = (value: unknown) => (value === undefined ? '(absent)' : show(value))
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const length = Math.max(expected.length, actual.length)
    for (let i = 0; i < length; i++) {
      resultDifferences(expected[i], actual[i], matchers, pointerTo(pointer, i), out)
    }
    return
  }
  if (isObject(expected) && isObject(actual)) {
    const keys = [...Object.keys(expected), ...Object.keys(actual).filter((k) => !(k in expected))]
    for (const key of keys) {
      resultDifferences(expected[key], actual[key], matchers, pointerTo(pointer, key), out)
    }
    return
  }
  out.push({ what, expected: absent(expected), actual: absent(actual) })
}

/** Everything about an answer that differs from `expect`; none when it is what was expected. */
export function compareAnswer(expect: Expect, response: Answer, decoded: Decoded): Difference[] {
  if (response.status !== expect.status) {
    return [
      {
        what: 'status',
        expected: String(expect.status),
        actual: `${response.status} (${show(decoded.ok ? decoded.value : decoded.message)})`,
      },
    ]
  }
  const out: Difference[] = []
  const value =
    decoded.text && typeof expect.result !== 'string' && expect.result !== undefined
      ? parseOr(decoded.value as string)
      : decoded.value
  if (expect.result !== undefined || expect.matchers !== undefined) {
    const found: Difference[] = []
    resultDifferences(expect.result, value, expect.matchers ?? {}, '', found)
    out.push(...found.slice(0, MAX_RESULT_DIFFERENCES))
    if (found.length > MAX_RESULT_DIFFERENCES) {
      out.push({
        what: 'result',
        expected: 'no more differences',
        actual: `${found.length - MAX_RESULT_DIFFERENCES} more`,
      })
    }
  }
  if (
    expect.resultType !== undefined &&
    (decoded.value === undefined || typeOf(decoded.value) !== expect.resultType)
  ) {
    out.push({
      what: 'a result of type',
      expected: expect.resultType,
      actual: show(decoded.value),
    })
  }
  if (expect.message !== undefined && decoded.message !== expect.message) {
    out.push({ what: 'message', expected: show(expect.message), actual: show(decoded.message) })
  }
  if (
    expect.messageMatch !== undefined &&
    !new RegExp(expect.messageMatch).test(decoded.message ?? '')
  ) {
    out.push({
      what: 'a message matching',
      expected: `/${expect.messageMatch}/`,
      actual: show(decoded.message),
    })
  }
  for (const [name, wanted] of Object.entries(expect.headers ?? {})) {
    const actual = response.headers[name.toLowerCase()]
    if (
      wanted === null
        ? actual !== undefined
        : typeof wanted === 'string'
          ? actual !== wanted
          : !new RegExp(wanted.match).test(actual ?? '')
    ) {
      out.push({
        what: `header ${name}`,
        expected:
          wanted === null
            ? '(absent)'
            : typeof wanted === 'string'
              ? show(wanted)
              : `/${wanted.match}/`,
        actual: actual === undefined ? '(absent)' : show(actual),
      })
    }
  }
  return out
}
