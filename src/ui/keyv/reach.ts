import { covers, parseAbility, type ParsedAbility } from '../shared/abilities'

/** The bucket and key prefix an authorization's key-value limits hold it to. */
export interface KeyvReach {
  bucket?: string
  prefix?: string
}

const limited = (ability: ParsedAbility) =>
  ability.bucket !== undefined || ability.prefix !== undefined

/**
 * Where the key-value view opens for a token with these abilities: the bucket and prefix of
 * its limits (a `keyv.scan` one first, since listing is what the view does), or nothing when
 * it may scan every bucket (a secret, or an ability without limits) or holds no key-value
 * ability at all.
 */
export function keyvReach(abilities: readonly string[] | null | undefined): KeyvReach | undefined {
  if (!abilities) return undefined
  const parsed = abilities.flatMap((raw) => {
    const checked = parseAbility(raw)
    return checked.ok ? [checked.ability] : []
  })
  const scans = parsed.filter((ability) => covers(ability.name, 'keyv.scan'))
  if (scans.some((ability) => !limited(ability))) return undefined
  const found =
    scans.find(limited) ??
    parsed.find((ability) => covers('keyv', ability.name) && limited(ability))
  if (!found) return undefined
  return {
    ...(found.bucket === undefined ? {} : { bucket: found.bucket }),
    ...(found.prefix === undefined ? {} : { prefix: found.prefix }),
  }
}

/** What `keyv.scan` with some abilities reaches of one bucket: all of it, keys under prefixes, or nothing. */
export type ScanReach =
  { kind: 'all' } | { kind: 'none' } | { kind: 'prefixes'; prefixes: string[] }

/**
 * What an authorization with these abilities may list of `bucket` through `keyv.scan`: the
 * engine's rule read again (decision 003), so that a bucket's count says what the token sees.
 * `undefined` abilities (a secret) reach everything.
 */
export function scanReach(
  abilities: readonly string[] | null | undefined,
  bucket: string,
): ScanReach {
  if (!abilities) return { kind: 'all' }
  const prefixes: string[] = []
  for (const raw of abilities) {
    const checked = parseAbility(raw)
    if (!checked.ok || !covers(checked.ability.name, 'keyv.scan')) continue
    const { bucket: only, prefix } = checked.ability
    if (only !== undefined && only !== bucket) continue
    if (prefix === undefined) return { kind: 'all' }
    prefixes.push(prefix)
  }
  // A prefix under another one reaches nothing more.
  const kept = [...new Set(prefixes)].filter(
    (prefix) => !prefixes.some((other) => other !== prefix && prefix.startsWith(other)),
  )
  return kept.length === 0 ? { kind: 'none' } : { kind: 'prefixes', prefixes: kept.sort() }
}
