// What `POST /_account/coverage` reads (decision 080): journal entries sent by a client (the
// playground sends its own exchange log), or none to read the account's journal, and a tally
// to add them to. Everything is checked before it is counted: a body that is not what the
// tally reads is a 400 naming the first field that is wrong, never a fault.

import { isTime } from '../../clock'
import { InvalidError } from '../../errors'
import type { Json } from '../../store'
import { DIMENSIONS, type CoverageEntry, type CoverageTally, type CredentialKind } from './tally'

/** The largest coverage body: thousands of traces, sent in a few parts. */
export const COVERAGE_BODY_LIMIT = 16 * 1024 * 1024

/** A coverage request, checked: `entries` absent means the account's own journal. */
export interface CoverageRequest {
  entries?: CoverageEntry[]
  tally?: CoverageTally
  /** With `skipUnreadable`: the entries left out because they are not what the tally reads. */
  skipped?: number
}

type Value = Json | undefined

const isObject = (value: Value): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const wrong = (path: string, what: string): never => {
  throw new InvalidError(`\`${path}' must be ${what}`)
}

function object(value: Value, path: string): Record<string, Json> {
  return isObject(value) ? value : wrong(path, 'an object')
}

function array(value: Value, path: string): Json[] {
  return Array.isArray(value) ? value : wrong(path, 'an array')
}

function text(value: Value, path: string): string {
  return typeof value === 'string' ? value : wrong(path, 'a string')
}

function textOrNull(value: Value, path: string): void {
  if (value !== null && typeof value !== 'string') wrong(path, 'a string or null')
}

function count(value: Value, path: string): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
    ? value
    : wrong(path, 'a whole number, 0 or more')
}

function numberOrNull(value: Value, path: string): void {
  if (value !== null && !(typeof value === 'number' && Number.isFinite(value))) {
    wrong(path, 'a number or null')
  }
}

const KINDS: readonly CredentialKind[] = ['secret', 'authorization', 'none', 'unknown']

function credential(value: Value, path: string): void {
  if (value === null) return
  const trace = object(value, path)
  if (!KINDS.includes(trace.kind as CredentialKind)) {
    wrong(`${path}.kind`, `one of ${KINDS.join(', ')}`)
  }
  textOrNull(trace.reason ?? null, `${path}.reason`)
  numberOrNull(trace.expiresAt ?? null, `${path}.expiresAt`)
  numberOrNull(trace.secretExpiresAt ?? null, `${path}.secretExpiresAt`)
  if (trace.insecure != null && typeof trace.insecure !== 'boolean') {
    wrong(`${path}.insecure`, 'a boolean or null')
  }
  if (trace.abilities != null) {
    array(trace.abilities, `${path}.abilities`).forEach((ability, i) =>
      text(ability, `${path}.abilities[${i}]`),
    )
  }
}

function call(value: Value, path: string): void {
  const trace = object(value, path)
  text(trace.endpoint, `${path}.endpoint`)
  text(trace.decision, `${path}.decision`)
  for (const field of ['grant', 'ability', 'code'] as const) {
    textOrNull(trace[field] ?? null, `${path}.${field}`)
  }
  if (trace.target !== undefined) {
    const target = object(trace.target, `${path}.target`)
    text(target.bucket, `${path}.target.bucket`)
    text(target.key, `${path}.target.key`)
  }
  if (trace.counterfactual !== undefined) {
    const counterfactual = object(trace.counterfactual, `${path}.counterfactual`)
    if (counterfactual.from !== undefined) text(counterfactual.from, `${path}.counterfactual.from`)
  }
}

/**
 * One journal entry, as `GET /_account/exchanges` gives it (only what coverage and least
 * privilege read), checked field by field: a wrong one is a 400 naming it.
 */
export function readEntry(value: Value, path: string): CoverageEntry {
  const { request, response, trace, at } = object(value, path)
  if (at !== undefined && !(typeof at === 'number' && isTime(at))) {
    wrong(`${path}.at`, 'a time in Unix seconds')
  }
  const req = object(request, `${path}.request`)
  text(req.url, `${path}.request.url`)
  array(req.headers, `${path}.request.headers`).forEach((header, i) => {
    const pair = array(header, `${path}.request.headers[${i}]`)
    if (pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') {
      wrong(`${path}.request.headers[${i}]`, 'a [name, value] pair of strings')
    }
  })
  if (req.body != null) {
    const body = object(req.body, `${path}.request.body`)
    if (body.encoding !== 'text' && body.encoding !== 'base64') {
      wrong(`${path}.request.body.encoding`, 'text or base64')
    }
    text(body.data, `${path}.request.body.data`)
  }
  count(object(response, `${path}.response`).status, `${path}.response.status`)
  const decided = object(trace, `${path}.trace`)
  textOrNull(decided.endpoint ?? null, `${path}.trace.endpoint`)
  credential(decided.credential ?? null, `${path}.trace.credential`)
  array(decided.calls, `${path}.trace.calls`).forEach((c, i) =>
    call(c, `${path}.trace.calls[${i}]`),
  )
  const outcome = object(decided.outcome, `${path}.trace.outcome`)
  count(outcome.status, `${path}.trace.outcome.status`)
  textOrNull(outcome.code ?? null, `${path}.trace.outcome.code`)
  return value as unknown as CoverageEntry
}

/** A tally to add to (a coverage report is one too: only its tally is read). */
function tally(value: Value, path: string): CoverageTally {
  const given = object(value, path)
  if (given.format !== 'service-playground-coverage' || given.version !== 1) {
    wrong(path, "a coverage tally (format `service-playground-coverage', version 1)")
  }
  const cells = array(given.cells, `${path}.cells`).map((c, i) => {
    const at = `${path}.cells[${i}]`
    const cell = object(c, at)
    if (!KINDS.includes(cell.credential as CredentialKind)) {
      wrong(`${at}.credential`, `one of ${KINDS.join(', ')}`)
    }
    const dimensions = object(cell.dimensions, `${at}.dimensions`)
    for (const [dimension, times] of Object.entries(dimensions)) {
      if (!(DIMENSIONS as readonly string[]).includes(dimension)) {
        wrong(`${at}.dimensions`, `keyed by ${DIMENSIONS.join(', ')}`)
      }
      count(times, `${at}.dimensions.${dimension}`)
    }
    return {
      endpoint: text(cell.endpoint, `${at}.endpoint`),
      credential: cell.credential as CredentialKind,
      outcome: text(cell.outcome, `${at}.outcome`),
      count: count(cell.count, `${at}.count`),
      dimensions: dimensions as Record<string, number>,
    }
  })
  const abilities = array(given.abilities, `${path}.abilities`).map((a, i) => {
    const at = `${path}.abilities[${i}]`
    const use = object(a, at)
    return {
      ability: text(use.ability, `${at}.ability`),
      minted: count(use.minted, `${at}.minted`),
      allowed: count(use.allowed, `${at}.allowed`),
      refused: count(use.refused, `${at}.refused`),
      // A tally written before policy matchers were counted has none.
      checked:
        use.checked === undefined
          ? { allowed: 0, refused: 0 }
          : (() => {
              const checked = object(use.checked, `${at}.checked`)
              return {
                allowed: count(checked.allowed, `${at}.checked.allowed`),
                refused: count(checked.refused, `${at}.checked.refused`),
              }
            })(),
    }
  })
  const minted = object(given.mintedWith, `${path}.mintedWith`)
  return {
    format: 'service-playground-coverage',
    version: 1,
    entries: count(given.entries, `${path}.entries`),
    cells,
    abilities,
    mintedWith: {
      expiry: count(minted.expiry, `${path}.mintedWith.expiry`),
      insecure: count(minted.insecure, `${path}.mintedWith.insecure`),
    },
  }
}

/**
 * The journal entries a control-plane body sends (`entries`; absent to read the account's
 * journal), each checked; with `skipUnreadable: true` an entry that is not what the engine
 * writes is left out and counted in `skipped`, instead of refusing the request (a log kept by
 * an older page may hold some).
 */
export function readEntries(body: Record<string, Json>): {
  entries?: CoverageEntry[]
  skipped?: number
} {
  if (body.skipUnreadable != null && typeof body.skipUnreadable !== 'boolean') {
    wrong('skipUnreadable', 'a boolean')
  }
  if (body.entries == null) return {}
  const given = array(body.entries, 'entries')
  if (body.skipUnreadable !== true) {
    return { entries: given.map((e, i) => readEntry(e, `entries[${i}]`)) }
  }
  const entries: CoverageEntry[] = []
  let skipped = 0
  given.forEach((e, i) => {
    try {
      entries.push(readEntry(e, `entries[${i}]`))
    } catch (error) {
      if (!(error instanceof InvalidError)) throw error
      skipped++
    }
  })
  return { entries, skipped }
}

/**
 * Reads a coverage request's body: `entries` and `skipUnreadable` (see `readEntries`) and
 * `tally` (one already made, to add to: a client sends a long log in parts).
 */
export function readCoverageRequest(body: Record<string, Json>): CoverageRequest {
  const request: CoverageRequest = readEntries(body)
  if (body.tally != null) request.tally = tally(body.tally, 'tally')
  return request
}
