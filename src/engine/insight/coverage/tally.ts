// Coverage of a client's authorization behaviour (decision 057): what its tests exercised,
// tallied from the journal the engine wrote while answering them (its decision traces), so it
// counts exactly what the engine decided.

import { covers } from '../../auth/abilities'
import { loggedBytes, type LoggedBody } from '../../operator/exchange-log'
import { coerce, NOT_COERCIBLE } from '../../runtime/types'
import type { RequestTrace } from '../../trace'
import { requestFormat } from '../../wire/formats'
import { parseCall } from '../../wire/request'
import { mintedAuthorization } from '../../auth/minted'

/** What coverage reads of a journal entry: a record of the journal, or of a HAR the page saved. */
export interface CoverageEntry {
  request: { url: string; headers: Array<[string, string]>; body: LoggedBody | null }
  response: { status: number }
  trace: RequestTrace
  /** When it was answered, Unix seconds on the virtual clock (absent where a source has none). */
  at?: number
}

/** The limit dimensions a call may exercise, and `none` for a call that exercised none. */
export const DIMENSIONS = ['bucket', 'prefix', 'expiry', 'roll', 'insecure', 'none'] as const
export type Dimension = (typeof DIMENSIONS)[number]

export type CredentialKind = 'secret' | 'authorization' | 'none' | 'unknown'

/**
 * The calls of one endpoint × credential × outcome, and how many of them exercised each limit
 * dimension (a call may exercise several: a bucket and a prefix limit, an expiry).
 */
export interface CoverageCell {
  endpoint: string
  credential: CredentialKind
  /** `allowed` (200), or the code the engine answered with. */
  outcome: string
  count: number
  dimensions: Partial<Record<Dimension, number>>
}

/** One ability the client held or minted, and how often it was met on each side. */
export interface AbilityUse {
  /** As written, limits included. */
  ability: string
  /** Times `auth.create` granted it. */
  minted: number
  /** Calls it let in. */
  allowed: number
  /** Calls refused to a token holding it, at its edge (no ability, or outside its limits). */
  refused: number
  /**
   * What policy matchers showed of it without a call: a passing `toReach` that it lets an
   * endpoint (or place) in, a passing `.not.toReach` that a token holding it is refused there.
   */
  checked: { allowed: number; refused: number }
}

/** What one passing policy matcher showed of an ability: that it lets in, or that it refuses. */
export interface PolicyCheck {
  ability: string
  shown: 'allowed' | 'refused'
}

/** The tally of one journal or many: it adds up across files, workers and runs. */
export interface CoverageTally {
  format: 'service-playground-coverage'
  version: 1
  /** Journal entries read. */
  entries: number
  cells: CoverageCell[]
  abilities: AbilityUse[]
  /** Whether any authorization was minted with `ttl` or `expiry`, or `insecure: true`. */
  mintedWith: { expiry: number; insecure: number }
}

export const emptyTally = (): CoverageTally => ({
  format: 'service-playground-coverage',
  version: 1,
  entries: 0,
  cells: [],
  abilities: [],
  mintedWith: { expiry: 0, insecure: 0 },
})

/** A tally being added to: keyed maps, turned back into a `CoverageTally` at the end. */
class Counter {
  entries = 0
  readonly cells = new Map<string, CoverageCell>()
  readonly abilities = new Map<string, AbilityUse>()
  readonly mintedWith = { expiry: 0, insecure: 0 }

  cell(
    endpoint: string,
    credential: CredentialKind,
    outcome: string,
    count: number,
    dimensions: Partial<Record<Dimension, number>>,
  ) {
    const key = `${endpoint}\u0000${credential}\u0000${outcome}`
    let cell = this.cells.get(key)
    if (!cell)
      this.cells.set(key, (cell = { endpoint, credential, outcome, count: 0, dimensions: {} }))
    cell.count += count
    for (const [dimension, times] of Object.entries(dimensions) as Array<[Dimension, number]>) {
      cell.dimensions[dimension] = (cell.dimensions[dimension] ?? 0) + times
    }
  }

  ability(raw: string): AbilityUse {
    let use = this.abilities.get(raw)
    if (!use) {
      use = { ability: raw, minted: 0, allowed: 0, refused: 0, checked: { allowed: 0, refused: 0 } }
      this.abilities.set(raw, use)
    }
    return use
  }

  add(tally: CoverageTally): void {
    this.entries += tally.entries
    for (const c of tally.cells)
      this.cell(c.endpoint, c.credential, c.outcome, c.count, c.dimensions)
    for (const a of tally.abilities) {
      const use = this.ability(a.ability)
      use.minted += a.minted
      use.allowed += a.allowed
      use.refused += a.refused
      // A file written before matchers were counted has no `checked`.
      use.checked.allowed += a.checked?.allowed ?? 0
      use.checked.refused += a.checked?.refused ?? 0
    }
    this.mintedWith.expiry += tally.mintedWith.expiry
    this.mintedWith.insecure += tally.mintedWith.insecure
  }

  tally(): CoverageTally {
    const byName =
      <T>(key: (t: T) => string) =>
      (a: T, b: T) =>
        key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0
    return {
      ...emptyTally(),
      entries: this.entries,
      cells: [...this.cells.values()].sort(
        byName((c) => `${c.endpoint}\u0000${c.credential}\u0000${c.outcome}`),
      ),
      abilities: [...this.abilities.values()]
        .map((a) => ({ ...a, checked: { ...a.checked } }))
        .sort(byName((a) => a.ability)),
      mintedWith: { ...this.mintedWith },
    }
  }
}

const header = (headers: Array<[string, string]>, name: string) =>
  headers.find(([key]) => key.toLowerCase() === name)?.[1] ?? null

/** The service's name, from the tuple content type an entry was sent with, if any. */
export const serviceNameOf = (entry: CoverageEntry) =>
  /application\/vnd\.([a-z][a-z0-9_-]*)\+/.exec(
    header(entry.request.headers, 'content-type') ?? '',
  )?.[1] ?? 'service'

/**
 * What an `auth.create` asked for, read from its request by the engine's own parser: its
 * abilities, and whether it set an expiry or `insecure`. `undefined` when it cannot be read
 * (a body cut short, an argument computed by a composition).
 */
export function mintRequest(entry: CoverageEntry, serviceName = serviceNameOf(entry)) {
  const { request } = entry
  if (request.body?.truncated) return undefined
  try {
    const format = requestFormat(header(request.headers, 'content-type'), serviceName)
    const call = parseCall(loggedBytes(request.body), format, new URL(request.url).searchParams)
    const arg = (name: string) => {
      const node = call.args.get(name)
      return node?.kind === 'literal' ? node : undefined
    }
    const abilities = arg('abilities')
    if (!abilities) return undefined
    const list = coerce(abilities.value, 'strings', abilities.text === true)
    if (list === NOT_COERCIBLE || !Array.isArray(list)) return undefined
    return {
      abilities: list as string[],
      expiry: arg('ttl') !== undefined || arg('expiry') !== undefined,
      insecure: arg('insecure')?.value === true || arg('insecure')?.value === 'true',
    }
  } catch {
    return undefined
  }
}

const [BUCKET, PREFIX, EXPIRY, ROLL, INSECURE] = [1, 2, 4, 8, 16]

/** The dimensions a set of bits names, made once per set (there are 32). */
const exercised = new Map<number, Partial<Record<Dimension, number>>>()
function exercisedBy(bits: number): Partial<Record<Dimension, number>> {
  let made = exercised.get(bits)
  if (!made) {
    made = {}
    DIMENSIONS.forEach((dimension, i) => {
      if (dimension === 'none' ? bits === 0 : bits & (1 << i)) made![dimension] = 1
    })
    exercised.set(bits, made)
  }
  return made
}

/** Adds what one journal entry exercised. */
function count(counter: Counter, entry: CoverageEntry): void {
  const { trace } = entry
  if (trace.endpoint === null) return
  counter.entries++
  const credential = trace.credential
  const kind: CredentialKind = credential ? credential.kind : 'unknown'
  const status = entry.response.status
  const outcome = status === 200 ? 'allowed' : (trace.outcome.code ?? String(status))
  // One bit per dimension of DIMENSIONS: no set or object per entry, 100,000 entries a go.
  let bits = 0
  if (credential) {
    if (credential.kind === 'authorization' && credential.expiresAt !== null) bits |= EXPIRY
    if (credential.reason === 'expired') bits |= EXPIRY
    if (credential.secretExpiresAt != null || credential.reason === 'secret_rolled') bits |= ROLL
    if (credential.insecure) bits |= INSECURE
  }
  if (outcome === 'insecure_ability') bits |= INSECURE
  const held = credential?.abilities ?? []
  for (const call of trace.calls) {
    const limits = call.ability ?? call.counterfactual?.from
    if (limits !== undefined && limits !== null && limits.includes('?')) {
      if (/[?&]bucket=/.test(limits)) bits |= BUCKET
      if (/[?&]prefix=/.test(limits)) bits |= PREFIX
    }
    if (call.grant === 'ability' && call.ability && call.decision !== 'refused') {
      counter.ability(call.ability).allowed++
    }
    if (call.decision === 'refused') {
      for (const raw of held) {
        const name = raw.split('?', 1)[0]!
        if (call.code === 'missing_ability' || covers(name, call.endpoint))
          counter.ability(raw).refused++
      }
    }
  }
  counter.cell(trace.endpoint, kind, outcome, 1, exercisedBy(bits))
  if (mintedAuthorization(trace.endpoint, status)) {
    const asked = mintRequest(entry)
    if (asked) {
      for (const raw of asked.abilities) counter.ability(raw).minted++
      if (asked.expiry) counter.mintedWith.expiry++
      if (asked.insecure) counter.mintedWith.insecure++
    }
  }
}

/** The tally of journal entries, added to the tallies given (of other files, other workers). */
export function tallyCoverage(
  entries: Iterable<CoverageEntry>,
  ...others: readonly CoverageTally[]
): CoverageTally {
  const counter = new Counter()
  for (const other of others) counter.add(other)
  for (const entry of entries) count(counter, entry)
  return counter.tally()
}

/** Tallies added up: of several files, workers or runs. */
export const mergeTallies = (...tallies: readonly CoverageTally[]): CoverageTally =>
  tallyCoverage([], ...tallies)

/** The tally of policy matchers' verdicts: abilities shown to let in or to refuse, no call made. */
export function tallyChecks(checks: Iterable<PolicyCheck>): CoverageTally {
  const counter = new Counter()
  for (const { ability, shown } of checks) counter.ability(ability).checked[shown]++
  return counter.tally()
}
