// How the control plane finds and runs a route: its handler's shape, which routes hold the account
// alone or take turns, how large a body each reads, and the table of patterns its paths match.

import { COVERAGE_BODY_LIMIT } from '../insight'
import type { InsightRun } from '../insight/context'
import type { Json } from '../store'
import type { AnswerOf, ControlRoute } from './control-routes'

/** Routes that move the account through its history: each runs alone, the others in flight first. */
const MOVES: ReadonlySet<ControlRoute> = new Set([
  'POST rewind',
  'POST branches/:id/switch',
  'POST replay',
  'GET recording',
  'POST replay/state',
])

/** An import carries the whole account; every other control-plane body is small. */
const IMPORT_BODY_LIMIT = 64 * 1024 * 1024

export /**
 * What a route is given: the JSON body (empty for a GET), its `:name` segments, the query, and
 * how it runs (its turns and its client's signal: see `TAKES_TURNS`).
 */
type Handler<K extends ControlRoute> = (
  body: Record<string, Json>,
  params: string[],
  query: URLSearchParams,
  run: InsightRun,
) => Promise<AnswerOf<K>>

export /**
 * Routes whose work grows with what they are asked or with the account (an import, an export,
 * the insight that evaluates calls): on a server that hosts several accounts each waits for
 * its account's turn to start, body read included, and takes turns as evaluations do.
 */
const TAKES_TURNS = new Set([
  'import',
  'export',
  'reach',
  'simulate',
  'diff',
  'coverage',
  'least-privilege',
])

/** How many bytes of body `path` reads: an import's or a recording's many, coverage's its own. */
export function bodyLimitOf(path: string, maxBodyBytes: number): number {
  return path === 'import' || path === 'replay/state'
    ? IMPORT_BODY_LIMIT
    : path === 'coverage' || path === 'least-privilege'
      ? COVERAGE_BODY_LIMIT
      : maxBodyBytes
}

/** The routes of `handlers`, each with the pattern its path matches and whether it runs alone. */
export function routeTable(handlers: { [K in ControlRoute]: Handler<K> }) {
  return (Object.keys(handlers) as ControlRoute[]).map((key) => {
    const [method, path] = key.split(' ') as [string, string]
    const pattern = new RegExp(`^${path.replace(/:[a-z]+/g, '([^/]+)')}$`)
    // A move through the history holds the account alone: it waits for the requests in flight.
    const alone = MOVES.has(key)
    return { method, pattern, alone, handler: handlers[key] as Handler<ControlRoute> }
  })
}
