import { InvalidError } from '../errors'
import { isExtension } from '../lang/value'

/**
 * The largest magnitude a number in a request may have: 2^53 − 1. Beyond it a double no longer
 * holds every integer, so an ID sent as `12345678901234567891` would come back changed; the
 * service refuses it instead of rounding it silently.
 */
export const MAX_EXACT = Number.MAX_SAFE_INTEGER

const RANGE = `±${MAX_EXACT} (2^53 − 1)`

/** The 400 for a number past `MAX_EXACT`, quoting it as the client wrote it. */
export function inexactNumber(written: string, where = '', advice = 'as a string'): InvalidError {
  return new InvalidError(
    `the body holds the number ${written}${where}, beyond ${RANGE}, which the service cannot carry exactly: send it ${advice}`,
    'number_inexact',
  )
}

/** Whether any number in a decoded body lies beyond `MAX_EXACT`. Iterative: no stack to overflow. */
export function holdsInexactNumber(root: unknown): boolean {
  const stack = [root]
  while (stack.length > 0) {
    const value = stack.pop()
    if (typeof value === 'number') {
      if (Math.abs(value) > MAX_EXACT) return true
    } else if (value !== null && typeof value === 'object' && !isExtension(value)) {
      for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push(child)
    }
  }
  return false
}

// Strings are matched whole, so that digits inside them are never taken for numbers.
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g

/**
 * Refuses JSON text (already parsed into `value`) that holds a number beyond `MAX_EXACT`,
 * naming it as written and where. Text with no run of 16 digits and no exponent holds none,
 * so the common body costs one regular-expression test.
 */
export function assertExactJson(text: string, value: unknown): void {
  if (!/\d{16}|\d[eE]/.test(text) || !holdsInexactNumber(value)) return
  for (const match of text.matchAll(TOKENS)) {
    const [token] = match
    if (token.startsWith('"') || Math.abs(Number(token)) <= MAX_EXACT) continue
    const before = text.slice(0, match.index)
    const line = before.split('\n').length
    const column = match.index - (before.lastIndexOf('\n') + 1) + 1
    throw inexactNumber(token, ` at line ${line}, column ${column}`)
  }
}
