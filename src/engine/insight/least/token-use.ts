// What one request of a token's did, added to its group: its counts, the call to replay, the
// refusals it met, and each endpoint call its trace shows let in, with what it touched.

import { NAME_PATTERN, parseAbility } from '../../auth/abilities'
import { MAX_BUCKETS, MAX_CHECKED } from './limits'
import { remember } from './replay-calls'
import type { TokenGroup } from './token-group'
import { CODE, endpointOf, isObject, text, type Loose } from './trace-fields'

/** Counts a refusal the token met at `endpoint`, by its code. */
function refusal(group: TokenGroup, endpoint: string, code: string): void {
  let byCode = group.refusals.get(endpoint)
  if (!byCode) group.refusals.set(endpoint, (byCode = new Map()))
  const met = byCode.get(code)
  if (met) met.calls++
  else byCode.set(code, { endpoint, code, calls: 1 })
}

/** Adds one request the token made. */
export function record(
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

const commonPrefix = (a: string, b: string) => {
  let i = 0
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++
  return i === a.length ? a : a.slice(0, i)
}
