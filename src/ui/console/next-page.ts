import type { ConsoleState } from './state'

/**
 * The form asking for the page at `cursor`: the cursor as the raw tuples' `cursor` (when the
 * raw tuples are what is sent), or as the `cursor` argument, in place of any before it.
 */
export function pageAt(state: ConsoleState, rawInUse: boolean, cursor: string): ConsoleState {
  if (rawInUse && state.raw !== null) {
    let tuples: unknown
    try {
      tuples = JSON.parse(state.raw)
    } catch {
      tuples = null
    }
    const kept = Array.isArray(tuples)
      ? tuples.filter((t) => !(Array.isArray(t) && t[0] === '$$' && t[1] === 'cursor'))
      : []
    return { ...state, raw: JSON.stringify([...kept, ['$$', 'cursor', cursor]], null, 2) }
  }
  const args = state.args.some((a) => a.name === 'cursor')
    ? state.args.map((a) =>
        a.name === 'cursor' ? { ...a, text: cursor, mode: 'text' as const } : a,
      )
    : [...state.args, { name: 'cursor', text: cursor, mode: 'text' as const }]
  return { ...state, args }
}
