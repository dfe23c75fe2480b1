import { InvalidError } from '../errors'
import { LIB } from '../settings'

/**
 * Abilities name a package or an endpoint by whole dotted segments (`type` grants
 * `type.string.reverse`, never `types.x`). `keyv` abilities may carry limits in query form:
 * `keyv?bucket=users`, `keyv.get?bucket=users&prefix=alice%2F`.
 */
export interface Ability {
  /** As given, limits included. */
  raw: string
  name: string
  bucket?: string
  prefix?: string
}

/** What a key-value call touches, for abilities with limits. */
export interface KeyvTarget {
  bucket: string
  /** The key read or written, or the prefix a scan covers. */
  key: string
}

export const NAME_PATTERN = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/
/** The longest ability, limits included, and the most text all of a token's abilities take. */
export const MAX_ABILITY_LENGTH = 256
export const MAX_ABILITIES_LENGTH = 4096
const LIMITS = ['bucket', 'prefix'] as const

/** Parses one ability; a malformed one is a 400 that quotes it. */
export function parseAbility(raw: string): Ability {
  if (raw.length > MAX_ABILITY_LENGTH) {
    throw new InvalidError(
      `invalid ability ${JSON.stringify(raw.slice(0, 32))}…: longer than ${MAX_ABILITY_LENGTH} characters`,
    )
  }
  const mark = raw.indexOf('?')
  const name = mark === -1 ? raw : raw.slice(0, mark)
  if (!NAME_PATTERN.test(name)) {
    throw new InvalidError(
      `invalid ability ${JSON.stringify(raw)}: name a package or an endpoint, such as \`type' or \`keyv.get'`,
    )
  }
  const ability: Ability = { raw, name }
  if (mark === -1) return ability
  if (!covers(name, 'keyv') && !covers('keyv', name)) {
    throw new InvalidError(
      `invalid ability ${JSON.stringify(raw)}: only keyv abilities take limits`,
    )
  }
  const params = new URLSearchParams(raw.slice(mark + 1))
  if (params.size === 0) {
    throw new InvalidError(
      `invalid ability ${JSON.stringify(raw)}: a \`?' must be followed by limits, such as \`keyv?bucket=users'`,
    )
  }
  for (const key of new Set(params.keys())) {
    if (!(LIMITS as readonly string[]).includes(key)) {
      throw new InvalidError(
        `invalid ability ${JSON.stringify(raw)}: unknown limit \`${key}'; use bucket or prefix`,
      )
    }
    const values = params.getAll(key)
    if (values.length > 1) {
      throw new InvalidError(
        `invalid ability ${JSON.stringify(raw)}: limit \`${key}' is given more than once`,
      )
    }
    if (values[0] === '') {
      throw new InvalidError(
        `invalid ability ${JSON.stringify(raw)}: limit \`${key}' needs a value`,
      )
    }
    ability[key as (typeof LIMITS)[number]] = values[0]
  }
  return ability
}

/**
 * Whether the ability named `grant` reaches the endpoint or package named `name`. Below `lib`
 * an ability names one stored procedure: `lib.foo` never reaches `lib.foo.admin`, which is
 * another procedure, not a part of `lib.foo`; only `lib` reaches them all.
 */
export function covers(grant: string, name: string): boolean {
  if (name === grant) return true
  return name.startsWith(`${grant}.`) && !grant.startsWith(`${LIB}.`)
}

/** The first of `abilities` that reaches `endpoint`, ignoring limits. */
export function granting(abilities: readonly Ability[], endpoint: string): Ability | undefined {
  return abilities.find((ability) => covers(ability.name, endpoint))
}

/** The first of `abilities` that reaches `endpoint` for this key-value target, limits included. */
export function grantingTarget(
  abilities: readonly Ability[],
  endpoint: string,
  target: KeyvTarget,
): Ability | undefined {
  return abilities.find(
    (ability) =>
      covers(ability.name, endpoint) &&
      (ability.bucket === undefined || ability.bucket === target.bucket) &&
      (ability.prefix === undefined || target.key.startsWith(ability.prefix)),
  )
}
