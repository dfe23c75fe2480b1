import { InvalidError } from '../errors'

/** Deeper JSON than this is refused before anything recurses over it. */
export const MAX_JSON_DEPTH = 256

/**
 * Throws a 400 when `value` nests arrays and objects deeper than `limit`. Iterative, so a
 * hostile body cannot overflow the stack while being checked.
 */
export function assertJsonDepth(value: unknown, limit = MAX_JSON_DEPTH): void {
  const stack: Array<[unknown, number]> = [[value, 1]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!
    if (current === null || typeof current !== 'object') continue
    if (depth > limit) throw new InvalidError(`the body nests deeper than ${limit} levels`)
    const children = Array.isArray(current) ? current : Object.values(current)
    for (const child of children) stack.push([child, depth + 1])
  }
}
