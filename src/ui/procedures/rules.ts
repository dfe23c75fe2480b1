import type { Json } from '../../engine'

/**
 * The engine's rules for stored procedures, checked in the form before anything is sent so
 * that mistakes are named in the form's own terms (the engine checks them again: 400).
 */

/** Letters, digits, `_` and `.` between segments; starts with a letter; at most 64 characters. */
const NAME = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/

/** What is wrong with a procedure name, or `undefined` when it is fine. */
export function nameProblem(name: string): string | undefined {
  if (name === '') return 'Give the procedure a name, such as text.shout.'
  if (name.length > 64) return `A name is at most 64 characters; this one has ${name.length}.`
  if (!/^[A-Za-z]/.test(name)) return 'A name starts with a letter.'
  const bad = /[^A-Za-z0-9_.]/.exec(name)
  if (bad) return `A name holds letters, digits, _ and dots only, not “${bad[0]}”.`
  if (!NAME.test(name)) return 'Dots go between segments: none at the end, never two in a row.'
  return undefined
}

const tupleMarker = (value: Json | undefined) =>
  Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined

/**
 * What is wrong with a procedure's shape (its top level and direct members), or `undefined`.
 * Deeper mistakes are the engine's to name.
 */
export function shapeProblem(proc: Json): string | undefined {
  const marker = tupleMarker(proc)
  if (!Array.isArray(proc) || (marker !== '{}' && marker !== '()')) {
    return 'A procedure is a ["{}", …] composition or a ["()", "endpoint", …] call.'
  }
  if (marker === '()') {
    if (typeof proc[1] !== 'string' || proc[1] === '') {
      return 'A "()" call names its endpoint second: ["()", "type.string.reverse", …].'
    }
    const wrong = proc.slice(2).findIndex((entry) => !['>>', '$$'].includes(tupleMarker(entry)!))
    if (wrong >= 0) {
      return `Member ${wrong + 3} of the call must be a [">>", input] or ["$$", name, value] tuple.`
    }
    return undefined
  }
  const wrong = proc
    .slice(1)
    .findIndex((entry) => !['>>', '$$', '()'].includes(tupleMarker(entry)!))
  if (wrong >= 0) {
    return `Step ${wrong + 1} of the composition must be a ["()", …] call, a [">>", input] or a ["$$", name, value] tuple.`
  }
  return undefined
}

/** A procedure to start from. */
export const EXAMPLE_PROC: Json = [
  '{}',
  ['()', 'type.string.reverse'],
  ['()', 'type.string.capitalize'],
]

/**
 * The endpoints a procedure calls (`["()", "name", …]` anywhere in it, compositions and
 * procedure arguments included), each once, in the order written.
 */
export function callsIn(proc: Json): string[] {
  const found = new Set<string>()
  const stack: Json[] = [proc]
  while (stack.length > 0) {
    const value = stack.pop()!
    if (!Array.isArray(value)) continue
    // A literal is data: what it holds is never called.
    if (value[0] === '%%') continue
    if (value[0] === '()' && typeof value[1] === 'string') found.add(value[1])
    for (let i = value.length - 1; i >= 0; i--) stack.push(value[i]!)
  }
  return [...found]
}

/**
 * What is wrong with the endpoints a procedure calls, or `undefined`: a name that is neither in
 * the engine's catalogue nor a stored procedure (`lib.<name>`, which may be created later) would
 * only be found out when the procedure runs (404).
 */
export function callProblem(
  proc: Json,
  endpoints: readonly string[],
  libPackage = 'lib',
): string | undefined {
  const unknown = callsIn(proc).filter(
    (name) => !endpoints.includes(name) && !name.startsWith(`${libPackage}.`),
  )
  if (unknown.length === 0) return undefined
  const [first] = unknown
  const near = endpoints.find((name) => closeTo(name, first!))
  return `${unknown.map((name) => `“${name}”`).join(', ')} ${
    unknown.length === 1 ? 'is not an endpoint' : 'are not endpoints'
  } of the engine: a call to it answers 404 when the procedure runs.${near ? ` Did you mean “${near}”?` : ''}`
}

/** Whether two names are one edit apart (a letter missing, added or changed). */
function closeTo(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false
  let i = 0
  while (i < a.length && a[i] === b[i]) i++
  return (
    a.slice(i + 1) === b.slice(i + 1) ||
    a.slice(i) === b.slice(i + 1) ||
    a.slice(i + 1) === b.slice(i)
  )
}
