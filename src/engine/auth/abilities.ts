import { InvalidError } from '../errors'
import { LIB } from '../settings'
import { withoutStage } from '../stages'

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
type Limit = (typeof LIMITS)[number]
/**
 * What a limit's value may not hold as it is: the characters that separate or end query
 * parameters, a `%` that starts no escape, spaces and control characters. Each is written as
 * a `%XX` escape instead; `+` reads as a space, as in any query string.
 */
// eslint-disable-next-line no-control-regex
const UNESCAPED = /[&=;?#\s\u0000-\u001f\u007f]|%(?![0-9A-Fa-f]{2})/

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
  Object.assign(ability, readLimits(raw, raw.slice(mark + 1)))
  return ability
}

/**
 * The limits after an ability's `?`, read strictly: `name=value` pairs joined by single `&`,
 * each limit once, each value non-empty and percent-encoded. Anything a lenient query parser
 * would quietly repair (`??`, a stray `&`, `;` as a separator, a broken `%` escape) is a 400.
 */
function readLimits(raw: string, query: string): Partial<Record<Limit, string>> {
  const invalid = (why: string) =>
    new InvalidError(`invalid ability ${JSON.stringify(raw)}: ${why}`)
  if (query === '') {
    throw invalid("a `?' must be followed by limits, such as `keyv?bucket=users'")
  }
  if (query.includes('?')) throw invalid("it holds more than one `?'; limits follow a single `?'")
  const limits: Partial<Record<Limit, string>> = {}
  for (const part of query.split('&')) {
    if (part === '') {
      throw invalid("it holds an empty limit (a stray `&'); join limits with single `&'s")
    }
    const equals = part.indexOf('=')
    const key = equals === -1 ? part : part.slice(0, equals)
    const written = equals === -1 ? '' : part.slice(equals + 1)
    if (!(LIMITS as readonly string[]).includes(key)) {
      throw invalid(`unknown limit \`${key}'; use bucket or prefix`)
    }
    if (written === '') throw invalid(`limit \`${key}' needs a value`)
    if (key in limits) throw invalid(`limit \`${key}' is given more than once`)
    const stray = UNESCAPED.exec(written)?.[0]
    if (stray === '%') {
      throw invalid(
        `limit \`${key}' is not valid percent-encoding: \`%' starts a two-digit hex escape`,
      )
    }
    if (stray !== undefined) {
      const escape = `%${stray.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`
      throw invalid(
        `limit \`${key}' holds ${JSON.stringify(stray)}, which a limit value must escape: write ${escape}`,
      )
    }
    try {
      limits[key as Limit] = decodeURIComponent(written.replaceAll('+', ' '))
    } catch {
      throw invalid(`limit \`${key}' is not valid percent-encoding of UTF-8 text`)
    }
  }
  return limits
}

/**
 * Whether the ability named `grant` reaches the endpoint or package named `name`. Below `lib`
 * an ability names one stored procedure: `lib.foo` never reaches `lib.foo.admin`, which is
 * another procedure, not a part of `lib.foo`; only `lib` reaches them all. `lib.foo` reaches
 * both stages of `foo`: `lib.foo:dev` too.
 */
export function covers(grant: string, called: string): boolean {
  const name = withoutStage(called)
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
