// What each token of a journal did (decision 090), read from the decision traces the engine
// wrote while answering: the endpoints each call let in (at any depth), the bucket and key each
// key-value call touched, the refusals met, and the calls themselves, to replay. Entries come
// from files a person hands over: every field is read as untrusted, and one that is not what
// the engine writes is left out, never a fault.

import { NAME_PATTERN, parseAbility } from '../../auth/abilities'
import { isTime } from '../../clock'
import { withoutStage } from '../../stages'
import type { SimulateCall } from '../types'
import { mintRequest, type CoverageEntry } from '../coverage/tally'
import { mintedAuthorization } from '../../auth/minted'

/** The most tokens one report follows; the rest are counted. */
export const MAX_TOKENS = 1_000
/** The most distinct calls of one token kept to replay. */
export const MAX_REPLAYED = 200
/** The most distinct endpoint-and-target pairs of one token kept to check against the rules. */
export const MAX_CHECKED = 1_000
/** The most distinct bearer tokens remembered to keep out of a report. */
export const MAX_BEARERS = 100_000
/** The most buckets followed per endpoint and granting ability; past it, that ability's limits are kept. */
export const MAX_BUCKETS = 64

/** A call to replay: as simulate takes it, with when it was made and how it was answered. */
export interface ReplayCall {
  call: SimulateCall
  /** The latest moment it was made, when known. */
  at: number | null
  status: number
  message: string | null
  /** What tells it from another call at the same URL: its content type and body as kept. */
  type: string | null
  body: string | null
  base64: boolean
}

/** An endpoint call a trace shows let in, and what it touched, for the proof's check. */
export interface TracedUse {
  endpoint: string
  /** The ability that let it in, as written. */
  ability: string
  target?: { bucket: string; key: string }
}

/** Where one granting ability let a key-value endpoint in: buckets, each with its keys' common prefix. */
export interface Regions {
  buckets: Map<string, string>
  /** Past `MAX_BUCKETS`, or a call whose target the trace does not say: the ability's own limits are kept. */
  whole: boolean
}

/** One endpoint a token was let into. */
export interface EndpointState {
  calls: number
  /** By granting ability (as written): where it let this endpoint in. */
  regions: Map<string, Regions>
}

/** Everything the journal says of one token. */
export interface TokenGroup {
  key: string
  /** What its credential trace said, as written, to find its other requests by. */
  raw: RawIdentity
  secretId: string | null
  abilities: string[] | null
  insecure: boolean | null
  createdAt: number | null
  expiresAt: number | null
  inJournal: boolean
  /** The order it was first met in the journal, to tell tokens apart stably. */
  seen: number
  calls: number
  allowed: number
  refused: number
  failed: number
  firstAt: number | null
  lastAt: number | null
  /** The last request its credential was accepted for: its ttl must reach it. */
  lastAccepted: number | null
  endpoints: Map<string, EndpointState>
  /** By endpoint, then by code. */
  refusals: Map<string, Map<string, { endpoint: string; code: string; calls: number }>>
  minted: boolean
  /** Distinct calls by URL (the URL names the endpoint and holds the query). */
  replay: Map<string, ReplayCall[]>
  replayed: number
  /** Distinct calls past `MAX_REPLAYED`, and calls whose body was cut (not replayable). */
  unreplayed: number
  /** The accepted call made last, kept to replay whatever the bound. */
  latest: ReplayCall | undefined
  /** Each endpoint call let in, once per ability (and bucket and key it touched). */
  checks: TracedUse[]
  /** What `checks` holds, by endpoint, then by ability: without a target, and by bucket and key. */
  checkIndex: Map<string, Map<string, { bare: boolean; keys: Map<string, Set<string>> }>>
  checked: number
  /** Requests that made more calls than their trace keeps. */
  partialTraces: number
  /** The authorization header of its last request, to keep its token once (never reported). */
  lastBearer: string | null
}

/** The tokens of a journal, and the requests made with a secret key or none. */
export interface JournalUse {
  entries: number
  secretCalls: number
  otherCalls: number
  groups: Map<string, TokenGroup>
  /** Requests of tokens past the first `MAX_TOKENS`, counted and not followed. */
  unfollowed: number
  /** The bearer tokens the entries carried, so that no report can repeat one. */
  bearers: Set<string>
}

type Loose = Record<string, unknown>
const isObject = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null)
const time = (value: unknown): number | null =>
  typeof value === 'number' && isTime(value) ? value : null
const STAGED = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*(:dev)?$/
const CODE = /^[a-z][a-z0-9_]{0,63}$/
const SECRET_ID = /^[A-Za-z0-9_.:-]{1,128}$/

/** An endpoint name as a trace writes one, without its stage; `null` for anything else. */
const endpointOf = (value: unknown): string | null => {
  const name = text(value)
  if (name === null || name.length > 512 || !STAGED.test(name)) return null
  // Only a dev stage is taken off: every other name is kept as it is, with nothing made.
  return name.endsWith(':dev') ? withoutStage(name) : name
}

/** Abilities that all read as abilities, or `null`. */
function abilitiesOf(value: unknown): string[] | null {
  if (!Array.isArray(value) || value.length === 0) return null
  const list: string[] = []
  for (const raw of value) {
    if (typeof raw !== 'string') return null
    try {
      parseAbility(raw)
    } catch {
      return null
    }
    list.push(raw)
  }
  return list
}

const header = (headers: unknown, name: string): string | null => {
  if (!Array.isArray(headers)) return null
  for (let i = 0; i < headers.length; i++) {
    const pair: unknown = headers[i]
    // Lengths first: a name of another length is never lowered (a copy per header, per entry).
    if (
      Array.isArray(pair) &&
      typeof pair[0] === 'string' &&
      pair[0].length === name.length &&
      (pair[0] === name || pair[0].toLowerCase() === name)
    ) {
      return text(pair[1])
    }
  }
  return null
}

/**
 * Keeps the request to replay, once per distinct call (its URL, content type and body as the
 * journal kept them): strings of the entry are compared, and a call made for simulate only
 * when one is new. A body cut short, or not as the journal writes one, cannot be replayed.
 */
function remember(
  group: TokenGroup,
  endpoint: string,
  request: Loose,
  status: number,
  message: string | null,
  at: number | null,
  accepted: boolean,
): void {
  const url = text(request.url)
  const given = request.body
  let body: string | null = null
  let base64 = false
  if (isObject(given)) {
    const encoding = given.encoding
    if (typeof given.data === 'string' && given.truncated !== true) {
      if (encoding === 'text' || encoding === 'base64') {
        body = given.data
        base64 = encoding === 'base64'
      }
    }
  }
  if (url === null || (given !== null && given !== undefined && body === null)) {
    group.unreplayed++
    return
  }
  const type = header(request.headers, 'content-type')
  let same = group.replay.get(url)
  let known: ReplayCall | undefined
  for (const r of same ?? []) {
    if (r.type === type && r.body === body && r.base64 === base64) {
      known = r
      break
    }
  }
  if (known) {
    if (at !== null && (known.at === null || at > known.at)) known.at = at
  } else if (group.replayed < MAX_REPLAYED) {
    known = replayCall(endpoint, url, type, body, base64, at, status, message)
    if (!same) group.replay.set(url, (same = []))
    same.push(known)
    group.replayed++
  } else group.unreplayed++
  if (accepted && at !== null && (group.latest === undefined || at > (group.latest.at ?? 0))) {
    group.latest = known ?? replayCall(endpoint, url, type, body, base64, at, status, message)
  }
}

function replayCall(
  endpoint: string,
  url: string,
  type: string | null,
  body: string | null,
  base64: boolean,
  at: number | null,
  status: number,
  message: string | null,
): ReplayCall {
  // The query as the URL carries it (a journal's URLs are absolute; none has a fragment).
  const mark = url.indexOf('?')
  const query = mark === -1 ? '' : url.slice(mark + 1).split('#', 1)[0]!
  const call: SimulateCall = { endpoint, query, ...(type === null ? {} : { contentType: type }) }
  if (body !== null) call[base64 ? 'bodyBase64' : 'body'] = body
  return { call, at, status, message, type, body, base64 }
}

const commonPrefix = (a: string, b: string) => {
  let i = 0
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++
  return i === a.length ? a : a.slice(0, i)
}

/**
 * What tells one token from another in a credential trace, as it is written: its secret, its
 * abilities, `insecure`, when it was made and when it expires (two tokens alike in all of
 * these reach the same). Made per entry, so it reads nothing twice.
 */
export function keyOf(credential: Record<string, unknown>): string {
  const { secretId, abilities, insecure, createdAt, expiresAt } = credential
  const listed = Array.isArray(abilities) ? abilities.join('\u0001') : String(abilities)
  return `${String(secretId)}\u0000${listed}\u0000${String(insecure)}\u0000${String(createdAt)}\u0000${String(expiresAt)}`
}

/** What a credential trace says of an authorization, each field checked. */
export function identityOf(credential: Record<string, unknown>) {
  const secretId = text(credential.secretId)
  return {
    secretId: secretId !== null && SECRET_ID.test(secretId) ? secretId : null,
    abilities: abilitiesOf(credential.abilities),
    insecure: typeof credential.insecure === 'boolean' ? credential.insecure : null,
    createdAt: time(credential.createdAt),
    expiresAt: time(credential.expiresAt),
  }
}

/** Reads the journal's entries into what each token did. */
export function collectUse(entries: Iterable<CoverageEntry>): JournalUse {
  const collector = useCollector()
  for (const entry of entries) collector.add(entry)
  return collector.finish()
}

/** What each token did, read one entry at a time (a caller may take turns between them). */
export function useCollector(): { add(entry: CoverageEntry): void; finish(): JournalUse } {
  const use: JournalUse = {
    entries: 0,
    secretCalls: 0,
    otherCalls: 0,
    groups: new Map(),
    unfollowed: 0,
    bearers: new Set(),
  }
  const mints: Array<{ abilities: string; at: number | null }> = []
  const parsedMints = new Map<string, string | null>()
  // Groups by the time their token was made, then told apart field by field: nothing is made
  // per entry to find its group.
  const byCreated = new Map<unknown, TokenGroup[]>()
  // A journal repeats each token in many requests: it is kept when it changes, per token (its
  // group's last header, compared as it stands) and for the calls of no token alike.
  let lastBearer: string | null = null
  const keep = (bearer: string | null) => {
    if (bearer === null || use.bearers.size >= MAX_BEARERS) return
    const trimmed = bearer.trim()
    const token = trimmed.slice(trimmed.indexOf(' ') + 1).trim()
    if (token.length >= 8) use.bearers.add(token)
  }
  const keepLast = (bearer: string | null) => {
    if (bearer === lastBearer) return
    lastBearer = bearer
    keep(bearer)
  }
  const add = (entry: CoverageEntry): void => {
    if (!isObject(entry)) return
    const { request, response, trace } = entry as unknown as Loose
    if (!isObject(request) || !isObject(response) || !isObject(trace)) return
    const bearer = header(request.headers, 'authorization')
    const endpoint = endpointOf(trace.endpoint)
    if (endpoint === null) {
      keepLast(bearer)
      return
    }
    use.entries++
    const status = typeof response.status === 'number' ? response.status : 0
    const at = time((entry as unknown as Loose).at)
    if (mintedAuthorization(endpoint, status)) {
      const asked = mintedBy(entry, parsedMints)
      if (asked !== null) mints.push({ abilities: asked, at })
    }
    const credential = isObject(trace.credential) ? trace.credential : null
    if (credential?.kind === 'secret') {
      keepLast(bearer)
      use.secretCalls++
      return
    }
    if (credential?.kind !== 'authorization') {
      keepLast(bearer)
      use.otherCalls++
      return
    }
    const created = credential.createdAt
    let alike = byCreated.get(created)
    let group = alike?.find((g) => sameToken(g.raw, credential))
    if (!group) {
      if (use.groups.size >= MAX_TOKENS) {
        keepLast(bearer)
        use.unfollowed++
        return
      }
      const key = keyOf(credential)
      group = use.groups.get(key)
      if (!group) {
        group = newGroup(key, identityOf(credential), use.groups.size, credential)
        use.groups.set(key, group)
      }
      if (!alike) byCreated.set(created, (alike = []))
      alike.push(group)
    }
    if (bearer !== group.lastBearer) {
      group.lastBearer = bearer
      keep(bearer)
    }
    const accepted = credential.decision === 'accepted'
    record(group, endpoint, request, status, at, accepted, trace, credential)
  }
  const finish = (): JournalUse => {
    for (const group of use.groups.values()) {
      const asked = group.abilities?.join('\n')
      group.inJournal = mints.some(
        (mint) =>
          mint.abilities === asked &&
          (mint.at === null ||
            group.createdAt === null ||
            (mint.at >= group.createdAt - 1 && mint.at <= group.createdAt + 5)),
      )
    }
    return use
  }
  return { add, finish }
}

/**
 * The abilities an `auth.create` in the journal asked for (joined by new lines); `null` when
 * its request does not read. Requests alike are read once: a journal repeats them.
 */
function mintedBy(entry: CoverageEntry, parsed: Map<string, string | null>): string | null {
  const { request } = entry
  if (!Array.isArray(request.headers) || typeof request.url !== 'string') return null
  const data = isObject(request.body) ? String(request.body.data) : ''
  const key = `${header(request.headers, 'content-type') ?? ''}\n${request.url}\n${data}`
  let asked = parsed.get(key)
  if (asked === undefined) {
    try {
      asked = mintRequest(entry)?.abilities.join('\n') ?? null
    } catch {
      asked = null
    }
    if (parsed.size >= 1_000) parsed.clear()
    parsed.set(key, asked)
  }
  return asked
}

/** The fields of a credential trace that tell tokens apart, as written. */
interface RawIdentity {
  secretId: unknown
  abilities: unknown
  insecure: unknown
  expiresAt: unknown
}

/** Whether a credential trace names the same token as `raw` (its time aside: compared before). */
function sameToken(raw: RawIdentity, credential: Loose): boolean {
  if (
    raw.secretId !== credential.secretId ||
    raw.insecure !== credential.insecure ||
    raw.expiresAt !== credential.expiresAt
  ) {
    return false
  }
  const [a, b] = [raw.abilities, credential.abilities]
  if (!Array.isArray(a) || !Array.isArray(b)) return a === b
  return a.length === b.length && a.every((ability, i) => ability === b[i])
}

function newGroup(
  key: string,
  identity: Pick<TokenGroup, 'secretId' | 'abilities' | 'insecure' | 'createdAt' | 'expiresAt'>,
  seen: number,
  credential: Loose,
): TokenGroup {
  const { secretId, abilities, insecure, expiresAt } = credential
  return {
    key,
    raw: {
      secretId,
      abilities: Array.isArray(abilities) ? [...(abilities as unknown[])] : abilities,
      insecure,
      expiresAt,
    },
    ...identity,
    inJournal: false,
    seen,
    calls: 0,
    allowed: 0,
    refused: 0,
    failed: 0,
    firstAt: null,
    lastAt: null,
    lastAccepted: null,
    endpoints: new Map(),
    refusals: new Map(),
    minted: false,
    replay: new Map(),
    replayed: 0,
    unreplayed: 0,
    latest: undefined,
    checks: [],
    checkIndex: new Map(),
    checked: 0,
    partialTraces: 0,
    lastBearer: null,
  }
}

function refusal(group: TokenGroup, endpoint: string, code: string): void {
  let byCode = group.refusals.get(endpoint)
  if (!byCode) group.refusals.set(endpoint, (byCode = new Map()))
  const met = byCode.get(code)
  if (met) met.calls++
  else byCode.set(code, { endpoint, code, calls: 1 })
}

/** Adds one request the token made. */
function record(
  group: TokenGroup,
  endpoint: string,
  request: Loose,
  status: number,
  at: number | null,
  accepted: boolean,
  trace: Loose,
  credential: Loose,
): void {
  group.calls++
  if (status === 200) group.allowed++
  else if (status === 401) group.refused++
  else group.failed++
  if (at !== null) {
    if (group.firstAt === null || at < group.firstAt) group.firstAt = at
    if (group.lastAt === null || at > group.lastAt) group.lastAt = at
  }
  const outcome = isObject(trace.outcome) ? trace.outcome : {}
  remember(group, endpoint, request, status, text(outcome.message), at, accepted)
  if (!accepted) {
    const reason = text(credential.reason)
    refusal(group, endpoint, reason !== null && CODE.test(reason) ? reason : 'refused')
    return
  }
  if (at !== null && (group.lastAccepted === null || at > group.lastAccepted)) {
    group.lastAccepted = at
  }
  if (typeof trace.droppedCalls === 'number' && trace.droppedCalls > 0) group.partialTraces++
  const calls = Array.isArray(trace.calls) ? trace.calls : []
  for (const call of calls) {
    if (!isObject(call)) continue
    const name = endpointOf(call.endpoint)
    if (name === null) continue
    if (call.decision === 'refused') {
      const code = text(call.code)
      refusal(group, name, code !== null && CODE.test(code) ? code : 'refused')
      continue
    }
    if (call.grant !== 'ability') continue
    const ability = text(call.ability)
    if (ability === null || !isGrant(ability)) continue
    if (name === 'auth.create') group.minted = true
    const where = isObject(call.target) ? call.target : undefined
    const bucket = where ? text(where.bucket) : null
    const key = where ? text(where.key) : null
    const target = bucket !== null && key !== null
    used(group, name, ability, bucket, key)
    if (group.checked < MAX_CHECKED) check(group, name, ability, bucket, key, target)
  }
}

const grants = new Map<string, boolean>()
/** Whether a trace's granting ability reads as an ability (remembered: a journal repeats them). */
function isGrant(raw: string): boolean {
  let ok = grants.get(raw)
  if (ok === undefined) {
    try {
      parseAbility(raw)
      ok = NAME_PATTERN.test(raw.split('?', 1)[0]!)
    } catch {
      ok = false
    }
    if (grants.size > 10_000) grants.clear()
    grants.set(raw, ok)
  }
  return ok
}

/** Keeps an endpoint call let in by `ability` for the proof's check, once per target. */
function check(
  group: TokenGroup,
  name: string,
  ability: string,
  bucket: string | null,
  key: string | null,
  target: boolean,
): void {
  let byAbility = group.checkIndex.get(name)
  if (!byAbility) group.checkIndex.set(name, (byAbility = new Map()))
  let seen = byAbility.get(ability)
  if (!seen) byAbility.set(ability, (seen = { bare: false, keys: new Map() }))
  if (!target) {
    if (seen.bare) return
    seen.bare = true
    group.checks.push({ endpoint: name, ability })
  } else {
    let keys = seen.keys.get(bucket!)
    if (!keys) seen.keys.set(bucket!, (keys = new Set()))
    if (keys.has(key!)) return
    keys.add(key!)
    group.checks.push({ endpoint: name, ability, target: { bucket: bucket!, key: key! } })
  }
  group.checked++
}

/** One endpoint call let in by `ability`, touching `bucket` and `key` when it is a key-value call. */
function used(
  group: TokenGroup,
  name: string,
  ability: string,
  bucket: string | null,
  key: string | null,
): void {
  let state = group.endpoints.get(name)
  if (!state) group.endpoints.set(name, (state = { calls: 0, regions: new Map() }))
  state.calls++
  // Every endpoint's regions are kept; only the key-value endpoints' are read.
  let regions = state.regions.get(ability)
  if (!regions) state.regions.set(ability, (regions = { buckets: new Map(), whole: false }))
  if (regions.whole) return
  if (bucket === null || key === null) {
    regions.whole = true
    return
  }
  const prefix = regions.buckets.get(bucket)
  if (prefix !== undefined) {
    // The common prefix only shortens: a key that starts with it leaves it as it is.
    if (!key.startsWith(prefix)) regions.buckets.set(bucket, commonPrefix(prefix, key))
  } else if (regions.buckets.size >= MAX_BUCKETS) regions.whole = true
  else regions.buckets.set(bucket, key)
}
