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
