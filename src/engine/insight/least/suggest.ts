// The narrowest `auth.create` arguments for what one token did (decision 090): each endpoint it
// was let into named alone, a key-value endpoint limited to the buckets it used and the longest
// key prefix their keys share, `insecure` only for an insecure ability used, a ttl that just
// reaches its last use. Every ability stays inside the one that let the calls in, so the
// suggestion never reaches what the minted token does not; the proof (`prove.ts`) checks it.

import {
  covers,
  MAX_ABILITIES_LENGTH,
  MAX_ABILITY_LENGTH,
  parseAbility,
  type Ability,
} from '../../auth/abilities'
import { MIN_TTL } from '../../packages/auth'
import { LIB } from '../../settings'
import { withLimits } from '../../auth/counterfactual'
import type { CatalogueEntry } from '../reach'
import type { Suggestion } from './types'
import type { Regions, TokenGroup } from './token-group'

/** A suggestion, and the moment its token would stop (for the proof). */
export interface Suggested extends Suggestion {
  expiresAt: number | null
}

const parsed = (raw: string): Ability | undefined => {
  try {
    return parseAbility(raw)
  } catch {
    return undefined
  }
}

/** `text` cut to at most `length` UTF-16 units, never inside a surrogate pair. */
function cut(text: string, length: number): string {
  if (length >= text.length) return text
  const last = text.charCodeAt(length - 1)
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length)
}

/** `text` up to its first lone surrogate, which no ability can write. */
function writable(text: string): string {
  const bad = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.exec(text)
  return bad ? text.slice(0, bad.index) : text
}

/** The granting ability narrowed to one endpoint, its limits kept: inside it by construction. */
function narrowedTo(grant: Ability | undefined, endpoint: string): string {
  if (!grant) return endpoint
  return withLimits(endpoint, grant.bucket, grant.prefix)
}

/**
 * The abilities for one key-value endpoint let in by one granting ability: a bucket each, with
 * the prefix its keys share (as long as it fits in an ability), never outside the grant.
 */
function regionAbilities(endpoint: string, raw: string, regions: Regions): string[] {
  const grant = parsed(raw)
  if (regions.whole || !grant) return [narrowedTo(grant, endpoint)]
  const written: string[] = []
  for (const [bucket, shared] of regions.buckets) {
    if (grant.bucket !== undefined && grant.bucket !== bucket) return [narrowedTo(grant, endpoint)]
    if (writable(bucket) !== bucket) return [narrowedTo(grant, endpoint)]
    const floor = grant.prefix ?? ''
    let prefix = writable(shared)
    if (!prefix.startsWith(floor)) return [narrowedTo(grant, endpoint)]
    let ability = withLimits(endpoint, bucket, prefix)
    while (ability.length > MAX_ABILITY_LENGTH && prefix.length > floor.length) {
      prefix = cut(prefix, Math.max(floor.length, prefix.length - 16))
      ability = withLimits(endpoint, bucket, prefix)
    }
    if (ability.length > MAX_ABILITY_LENGTH) return [narrowedTo(grant, endpoint)]
    written.push(ability)
  }
  return written
}

/** Whether every call `inner` lets in, `outer` lets in too (by name, bucket and prefix). */
const inside = (inner: Ability, outer: Ability) =>
  covers(outer.name, inner.name) &&
  (outer.bucket === undefined || outer.bucket === inner.bucket) &&
  (outer.prefix === undefined || (inner.prefix ?? '').startsWith(outer.prefix))

/** Drops each ability another of the list already covers; of two alike, the first stays. */
export function withoutCovered(abilities: readonly string[]): string[] {
  const read = [...new Set(abilities)].flatMap((raw) => {
    const ability = parsed(raw)
    return ability ? [ability] : []
  })
  return read
    .filter((a, i) => !read.some((b, j) => j !== i && inside(a, b) && (!inside(b, a) || j < i)))
    .map((a) => a.raw)
}

/**
 * Endpoints named alone, folded into a package the minted token held whole when every endpoint
 * of it in the catalogue was used (the same reach, fewer abilities). `lib` never folds: each
 * stored procedure is named.
 */
function folded(
  bare: Set<string>,
  minted: readonly Ability[],
  catalogue: readonly CatalogueEntry[],
): string[] {
  const packages = new Set<string>()
  for (const name of bare) {
    const parts = name.split('.')
    for (let i = 1; i < parts.length; i++) packages.add(parts.slice(0, i).join('.'))
  }
  const heldWhole = (pkg: string) =>
    minted.some((a) => a.bucket === undefined && a.prefix === undefined && covers(a.name, pkg))
  const result = new Set(bare)
  // Shallowest first: a package folded takes its sub-packages with it.
  for (const pkg of [...packages].sort((a, b) => a.split('.').length - b.split('.').length)) {
    if (pkg === LIB || pkg.startsWith(`${LIB}.`) || !heldWhole(pkg)) continue
    const inside = catalogue.filter((entry) => covers(pkg, entry.name))
    if (inside.length < 2 || !inside.every((entry) => bare.has(entry.name))) continue
    if ([...result].some((r) => r !== pkg && covers(r, pkg))) continue
    for (const entry of inside) result.delete(entry.name)
    for (const r of [...result]) if (covers(pkg, r)) result.delete(r)
    result.add(pkg)
  }
  return [...result]
}

/** Whether minting `abilities` needs `insecure: true`: one covers an insecure endpoint. */
const holdsInsecure = (abilities: readonly string[], insecureEndpoints: readonly string[]) =>
  abilities.some((raw) => {
    const name = parsed(raw)?.name
    return name !== undefined && insecureEndpoints.some((endpoint) => covers(name, endpoint))
  })

/** The narrowest `auth.create` arguments under which every call `group` was let in for still is. */
export function suggest(
  group: TokenGroup,
  catalogue: readonly CatalogueEntry[],
  insecureEndpoints: readonly string[],
): Suggested {
  const notes: string[] = []
  const minted = (group.abilities ?? []).flatMap((raw) => parsed(raw) ?? [])
  const keyed = new Set(catalogue.filter((e) => e.keyed).map((e) => e.name))
  const bare = new Set<string>()
  const limited: string[] = []
  const wholeGrants: string[] = []
  for (const [endpoint, state] of [...group.endpoints].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!keyed.has(endpoint)) {
      bare.add(endpoint)
      continue
    }
    for (const [raw, regions] of state.regions) {
      if (regions.whole) wholeGrants.push(raw)
      limited.push(...regionAbilities(endpoint, raw, regions))
    }
  }
  if (wholeGrants.length > 0) {
    notes.push(
      `kept the limits of ${[...new Set(wholeGrants)].map((a) => `\`${a}'`).join(', ')} where the journal does not say which bucket or key a call used (or used more than a report follows)`,
    )
  }
  let abilities = [...folded(bare, minted, catalogue), ...withoutCovered(limited)].sort()
  const total = (list: readonly string[]) => list.reduce((n, a) => n + a.length, 0)
  if (total(abilities) > MAX_ABILITIES_LENGTH) {
    // Too long for one token: the granting abilities themselves, narrowed to their endpoints.
    const grants = new Set<string>()
    for (const [endpoint, state] of group.endpoints) {
      if (!keyed.has(endpoint)) continue
      for (const raw of state.regions.keys()) grants.add(narrowedTo(parsed(raw), endpoint))
    }
    abilities = [...folded(bare, minted, catalogue), ...withoutCovered([...grants])].sort()
    if (total(abilities) > MAX_ABILITIES_LENGTH && group.abilities) abilities = [...group.abilities]
    notes.push(
      `the narrowest abilities take more than the ${MAX_ABILITIES_LENGTH} characters a token may hold: kept ${abilities === group.abilities ? "the minted token's own" : 'the limits the minted abilities had'}`,
    )
  }
  const insecure = holdsInsecure(abilities, insecureEndpoints)
  if (abilities.length === 0) {
    notes.push(
      'no call of it was let in: nothing it did needs a token (auth.create takes at least one ability)',
    )
  }
  const { ttl, expiresAt } = lifetime(group, notes)
  return {
    abilities,
    insecure,
    ttl,
    expiresAt,
    args: {
      abilities,
      ...(insecure ? { insecure: true as const } : {}),
      ...(ttl === null ? {} : { ttl }),
    },
    notes,
  }
}

/**
 * A ttl that reaches the last call its token was accepted for, never past the minted expiry;
 * the minted one kept for a token that minted others (a child dies with its parent) or whose
 * times the journal does not give.
 */
function lifetime(
  group: TokenGroup,
  notes: string[],
): { ttl: number | null; expiresAt: number | null } {
  const { createdAt, expiresAt, lastAccepted } = group
  // auth.create takes a ttl of a second or more; a child its parent cut shorter keeps its expiry.
  const minted =
    createdAt !== null && expiresAt !== null
      ? { ttl: Math.max(MIN_TTL, expiresAt - createdAt), expiresAt }
      : { ttl: null, expiresAt }
  if (group.minted) {
    notes.push(
      "kept its lifetime: it minted authorizations, and each of them stops when it does (a shorter ttl would end the children's calls too)",
    )
    return minted
  }
  if (createdAt === null || lastAccepted === null) {
    notes.push('kept its lifetime: the journal does not say when it was minted or last used')
    return minted
  }
  const ttl = Math.max(MIN_TTL, Math.floor(lastAccepted - createdAt) + 1)
  if (expiresAt !== null && createdAt + ttl >= expiresAt) return minted
  return { ttl, expiresAt: createdAt + ttl }
}

/** `suggestion` holding `extra` too (abilities the proof found it needs), folded as before. */
export function widened(
  suggestion: Suggested,
  extra: readonly string[],
  insecureEndpoints: readonly string[],
): Suggested {
  const abilities = withoutCovered([...suggestion.abilities, ...extra]).sort()
  const insecure = holdsInsecure(abilities, insecureEndpoints)
  return {
    ...suggestion,
    abilities,
    insecure,
    args: {
      abilities,
      ...(insecure ? { insecure: true as const } : {}),
      ...(suggestion.ttl === null ? {} : { ttl: suggestion.ttl }),
    },
    notes: [
      ...suggestion.notes,
      `widened by the proof to ${extra.map((a) => `\`${a}'`).join(', ')}: a replayed call needed ${extra.length === 1 ? 'it' : 'them'} beyond what its trace showed`,
    ],
  }
}
