import { InvalidError } from '../errors'
import { isExtension } from './value'

/** Deeper JSON than this is refused before anything recurses over it. */
export const MAX_JSON_DEPTH = 256

/**
 * Throws a 400 when `value` (the body, unless `what` names it otherwise) nests arrays and
 * objects deeper than `limit`, or holds a number JSON cannot carry (`1e400` parses to
 * Infinity). Iterative, so a hostile value cannot overflow the stack while being checked.
 * Every value made from text goes through here: bodies, query strings, `@@` references.
 */
export function assertJsonDepth(value: unknown, limit = MAX_JSON_DEPTH, what = 'the body'): void {
  const stack: Array<[unknown, number]> = [[value, 1]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!
    if (typeof current === 'number' && !Number.isFinite(current)) {
      throw new InvalidError(`${what} holds a number out of range`, 'number_overflow')
    }
    // A decimal or a timestamp is a leaf, like a number or a string.
    if (current === null || typeof current !== 'object' || isExtension(current)) continue
    if (depth > limit) {
      throw new InvalidError(`${what} nests deeper than ${limit} levels`, 'too_deep')
    }
    const children = Array.isArray(current) ? current : Object.values(current)
    for (const child of children) stack.push([child, depth + 1])
  }
}
