// The checks an import's reader is made of: each field of the document held to what export
// writes, a 400 naming the first bad one by its path; the document's depth found without
// recursion; a turn for the event loop between pieces of a large one.

import { isTime, MAX_TIME_TEXT } from '../clock'
import { InvalidError } from '../errors'
import { MAX_JSON_DEPTH } from '../lang/depth'
import { yieldWhenDue } from '../runtime/turns'
import { isObject } from '../runtime/types'
import type { Json } from '../store'

/**
 * How many levels of the document lead down to a field: `format` (1), `meta.signingKey` (2),
 * `keyv[3].value` (3). A field's own value nests below that.
 */
const fieldLevel = (top: string): number =>
  top === 'meta' ? 2 : top === 'secrets' || top === 'keyv' || top === 'procs' ? 3 : 1

/** The first `length` characters of a value as JSON, for a message. */
export function quoted(value: unknown, length = 40): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > length ? `${text.slice(0, length)}…` : text
}

/** A bad field: `invalid snapshot: <path> <problem>`, a 400. */
export class Fail extends InvalidError {
  constructor(path: string, problem: string) {
    super(`invalid snapshot: ${path} ${problem}`, 'invalid_snapshot')
  }
}

/**
 * Where the document first nests deeper than its values may (the depth limit of the API, plus
 * the document's own frame), as a path; `undefined` when it does not. Iterative, so a hostile
 * import cannot overflow the stack while being checked.
 */
export async function tooDeep(root: unknown): Promise<string | undefined> {
  if (root === null || typeof root !== 'object') return undefined
  // [value, its depth from the document (the document is 0), the path to its field, the
  // depth of that field]
  const stack: Array<[unknown, number, string, number]> = Object.entries(root).map(
    ([key, value]) => [value, 1, key, fieldLevel(key)],
  )
  for (let seen = 1; stack.length > 0; seen++) {
    if (seen % CHECK_PIECE === 0) await giveWay()
    const [value, depth, path, field] = stack.pop()!
    if (value === null || typeof value !== 'object') continue
    // The field itself is its first level.
    if (depth - field + 1 > MAX_JSON_DEPTH) return path
    const child = (key: string): string => (depth < field ? `${path}${key}` : path)
    if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push([item, depth + 1, child(`[${i}]`), field]))
    } else {
      for (const [key, item] of Object.entries(value)) {
        stack.push([item, depth + 1, child(`.${key}`), field])
      }
    }
  }
  return undefined
}

/** Values checked between two looks at the clock while an import is read. */
export const CHECK_PIECE = 256
/** Reading an import gives the event loop a turn once it has run this long without one. */
export const CHECK_SLICE_MS = 10

/** A turn for the event loop, when reading has held it for a slice. */
export async function giveWay(): Promise<void> {
  const turn = yieldWhenDue(CHECK_SLICE_MS)
  if (turn) await turn
}

/** Each field of a record, with its check. */
export type Fields = Record<string, (value: unknown, path: string) => void>

/** Checks that `item` at `path` is an object with exactly these fields, each as its check says. */
export function record(item: unknown, path: string, fields: Fields): Record<string, Json> {
  if (!isObject(item)) throw new Fail(path, `must be an object, not ${quoted(item)}`)
  for (const key of Object.keys(item)) {
    if (!Object.hasOwn(fields, key)) {
      throw new Fail(
        `${path}.${key}`,
        `is not a field export writes; expected ${Object.keys(fields).join(', ')}`,
      )
    }
  }
  for (const [key, check] of Object.entries(fields)) {
    if (!Object.hasOwn(item, key)) throw new Fail(`${path}.${key}`, 'is missing')
    check(item[key], `${path}.${key}`)
  }
  return item
}

/** A string matching `pattern`, said as `what` when it does not. */
export const text =
  (pattern: RegExp, what: string) =>
  (value: unknown, path: string): void => {
    if (typeof value !== 'string' || !pattern.test(value)) {
      throw new Fail(path, `must be ${what}, not ${quoted(value)}`)
    }
  }

/** A string of `min` to `max` characters. */
export const lengthBetween = (min: number, max: number) =>
  text(new RegExp(`^[\\s\\S]{${min},${max}}$`), `a string of ${min} to ${max} characters`)

/** A Unix time in seconds, as the clock writes one. */
export function time(value: unknown, path: string): void {
  if (typeof value !== 'number' || !isTime(value)) {
    throw new Fail(
      path,
      `must be a Unix time in seconds of at most ${MAX_TIME_TEXT}, not ${quoted(value)}`,
    )
  }
}

/** `null`, or what `check` takes. */
export const orNull =
  (check: (value: unknown, path: string) => void) =>
  (value: unknown, path: string): void => {
    if (value !== null) check(value, path)
  }

/** Anything: a field rewritten on import. */
export const anything = () => undefined

/** An array, named `name` in the message when it is not. */
export function list(value: unknown, name: string): unknown[] {
  if (!Array.isArray(value)) throw new Fail(name, 'must be an array')
  return value
}
