// Where a minted token reaches beyond its use, one sentence each (decision 090): what the lint
// prints and the playground lists. The measure a CI gate reads is the proof's diff (`excess`);
// these say why, ability by ability.

import { covers, parseAbility, type Ability } from '../../auth/abilities'
import type { CatalogueEntry } from '../reach'
import type { LeastPrivilegeFlag } from './types'
import type { TokenGroup } from './token-group'

/** Past its last use, a token still working this long (and ten times its use) is flagged. */
export const TTL_SLACK_SECONDS = 3600

const quote = (names: readonly string[], most = 4) =>
  names
    .slice(0, most)
    .map((n) => `\`${n}'`)
    .join(', ') + (names.length > most ? ` and ${names.length - most} more` : '')

const commonPrefix = (a: string, b: string) => {
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  return a.slice(0, i)
}

const span = (seconds: number) =>
  seconds >= 86_400
    ? `${Math.round(seconds / 8640) / 10} days`
    : seconds >= 3600
      ? `${Math.round(seconds / 360) / 10} hours`
      : `${Math.round(seconds)} s`

/** The flags of one token: each minted ability wider than its use, and a lifetime past it. */
export function flagsOf(
  group: TokenGroup,
  catalogue: readonly CatalogueEntry[],
  insecureEndpoints: readonly string[],
): LeastPrivilegeFlag[] {
  const flags: LeastPrivilegeFlag[] = []
  const used = [...group.endpoints.keys()]
  const grantsUsed = new Set<string>()
  for (const state of group.endpoints.values())
    for (const raw of state.regions.keys()) grantsUsed.add(raw)
  for (const raw of group.abilities ?? []) {
    let ability: Ability
    try {
      ability = parseAbility(raw)
    } catch {
      continue
    }
    const reached = catalogue.filter((e) => covers(ability.name, e.name)).map((e) => e.name)
    const usedHere = used.filter((name) => covers(ability.name, name))
    const insecure = insecureEndpoints.filter((name) => covers(ability.name, name))
    if (insecure.length > 0 && !insecure.some((name) => usedHere.includes(name))) {
      flags.push({
        kind: 'insecure_unused',
        ability: raw,
        sentence: `\`${raw}' is insecure (it reaches ${quote(insecure)}) and was never used for it`,
      })
    }
    if (usedHere.length === 0) {
      flags.push({
        kind: 'ability_unused',
        ability: raw,
        sentence: `\`${raw}' let no call in`,
      })
      continue
    }
    if (reached.length > 1 && usedHere.length < reached.length) {
      flags.push({
        kind: 'package_for_endpoints',
        ability: raw,
        sentence: `\`${raw}' reaches ${reached.length} endpoints; ${usedHere.length} ${usedHere.length === 1 ? 'was' : 'were'} used (${quote(usedHere)})`,
      })
    }
    const keyed = usedHere.filter((name) => catalogue.some((e) => e.name === name && e.keyed))
    const regions = keyed.map((name) => ({
      name,
      found: group.endpoints.get(name)?.regions.get(raw),
    }))
    if (regions.some(({ found }) => !found || found.whole)) continue
    const buckets = [...new Set(regions.flatMap(({ found }) => [...found!.buckets.keys()]))]
    if (buckets.length === 0) continue
    if (ability.bucket === undefined) {
      flags.push({
        kind: 'keyv_unlimited',
        ability: raw,
        sentence: `\`${raw}' reaches every bucket; the calls used ${buckets.length === 1 ? 'bucket' : 'buckets'} ${quote(buckets)}`,
      })
      continue
    }
    // Per endpoint: the prefix its keys share, where it is longer than the ability's own.
    const narrower = regions.flatMap(({ name, found }) => {
      const shared = [...found!.buckets.values()].reduce(commonPrefix)
      return shared.length > (ability.prefix ?? '').length ? [`\`${shared}' (${name})`] : []
    })
    if (narrower.length > 0) {
      flags.push({
        kind: 'keyv_wider',
        ability: raw,
        sentence: `\`${raw}' reaches every key${ability.prefix ? ` under \`${ability.prefix}'` : ''} of \`${ability.bucket}'; the keys used start with ${narrower.slice(0, 4).join(', ')}${narrower.length > 4 ? ' and more' : ''}`,
      })
    }
  }
  const { createdAt, expiresAt, lastAccepted } = group
  if (lastAccepted !== null && createdAt !== null && !group.minted) {
    const used = Math.max(0, lastAccepted - createdAt)
    if (expiresAt === null) {
      flags.push({
        kind: 'never_expires',
        sentence: `it never expires; its last use was ${span(used)} after it was minted`,
      })
    } else if (expiresAt - lastAccepted > Math.max(TTL_SLACK_SECONDS, 10 * used)) {
      flags.push({
        kind: 'ttl_beyond_use',
        sentence: `it works ${span(expiresAt - lastAccepted)} past its last use (${span(used)} after it was minted)`,
      })
    }
  }
  return flags
}
