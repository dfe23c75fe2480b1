import type { EndpointInfo } from '../shared/catalogue'

/**
 * What the composer knows about abilities before it sends anything: the engine's own rules
 * (decision 003), read again here because the UI may not import engine code. The engine stays
 * the judge: these only let the form say beforehand what it will answer.
 */

/** The package stored procedures are called under (`lib.<name>`). */
export const LIB = 'lib'

const NAME_PATTERN = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/
/** The longest ability, limits included, and the most text all of them may take. */
export const MAX_ABILITY_LENGTH = 256
export const MAX_ABILITIES_LENGTH = 4096
const LIMITS = ['bucket', 'prefix'] as const

export interface ParsedAbility {
  /** As written, limits included. */
  raw: string
  name: string
  bucket?: string
  prefix?: string
}

export type AbilityCheck = { ok: true; ability: ParsedAbility } | { ok: false; problem: string }

/** Reads an ability as the engine does; a malformed one says why the engine will refuse it. */
export function parseAbility(raw: string): AbilityCheck {
  const refuse = (why: string): AbilityCheck => ({ ok: false, problem: `\`${raw}' ${why}` })
  if (raw.length > MAX_ABILITY_LENGTH) {
    return refuse(`is longer than ${MAX_ABILITY_LENGTH} characters`)
  }
  const mark = raw.indexOf('?')
  const name = mark === -1 ? raw : raw.slice(0, mark)
  if (!NAME_PATTERN.test(name)) {
    return refuse(
      'is not a name: use dotted segments of letters, digits and _, with no spaces or empty segments',
    )
  }
  const ability: ParsedAbility = { raw, name }
  if (mark === -1) return { ok: true, ability }
  if (!covers(name, 'keyv') && !covers('keyv', name)) {
    return refuse('has limits, and only keyv abilities take limits')
  }
  const query = raw.slice(mark + 1)
  // What a lenient query parser would repair, the engine refuses (decision 003).
  if (query.includes('?')) return refuse("has more than one `?': limits follow a single `?'")
  if (query.split('&').includes('') && query !== '') {
    return refuse("has an empty limit (a stray `&'): join limits with single `&'s")
  }
  if (/[;#\s]|%(?![0-9A-Fa-f]{2})/.test(query)) {
    return refuse(
      "has a character a limit value must percent-encode (`;', `#', a space or a lone `%')",
    )
  }
  const params = new URLSearchParams(query)
  if (params.size === 0) return refuse("has a `?' with no limits after it")
  for (const key of new Set(params.keys())) {
    if (!(LIMITS as readonly string[]).includes(key)) {
      return refuse(`has an unknown limit \`${key}': only bucket and prefix exist`)
    }
    const values = params.getAll(key)
    if (values.length > 1) return refuse(`gives the limit \`${key}' more than once`)
    if (values[0] === '') return refuse(`gives the limit \`${key}' no value`)
    ability[key as (typeof LIMITS)[number]] = values[0]
  }
  return { ok: true, ability }
}

/**
 * Whether the ability named `grant` reaches `name`, by whole dotted segments. Below `lib` an
 * ability names one stored procedure: `lib.foo` never reaches `lib.foo.admin`.
 */
export function covers(grant: string, name: string): boolean {
  if (name === grant) return true
  return name.startsWith(`${grant}.`) && !grant.startsWith(`${LIB}.`)
}

/** A `keyv` ability with limits in query form: `keyv.get?bucket=users&prefix=alice%2F`. */
export function keyvAbility(name: string, limits: { bucket?: string; prefix?: string }): string {
  const params = new URLSearchParams()
  if (limits.bucket) params.set('bucket', limits.bucket)
  if (limits.prefix) params.set('prefix', limits.prefix)
  const query = params.toString()
  return query ? `${name}?${query}` : name
}

/** An ability as a person reads it: its name, then its limits in words. */
export function describeAbility(raw: string): string {
  const checked = parseAbility(raw)
  if (!checked.ok) return raw
  const { name, bucket, prefix } = checked.ability
  const limits = [
    ...(bucket === undefined ? [] : [`bucket “${bucket}”`]),
    ...(prefix === undefined ? [] : [`keys starting with “${prefix}”`]),
  ]
  return limits.length ? `${name}, only ${limits.join(', ')}` : name
}

/** Everything an ability can name in this account now. */
export interface AbilityWorld {
  endpoints: readonly EndpointInfo[]
  /** Every package the catalogue implies (`packagesOf`). */
  packages: readonly string[]
  /** Stored procedure names, without `lib.`. */
  procedures: readonly string[]
  serviceName: string
}

/** Whether a well-formed name reaches something that exists now. */
export function namesSomething(name: string, world: AbilityWorld): boolean {
  if (name === LIB) return true
  if (name.startsWith(`${LIB}.`)) return world.procedures.includes(name.slice(LIB.length + 1))
  return world.endpoints.some((endpoint) => covers(name, endpoint.name))
}

/** An insecure endpoint an ability reaches, and what holding it allows. */
export interface InsecureReach {
  endpoint: string
  reason: string
}

/** The insecure endpoints (`insecure: true` in the catalogue) that an ability reaches. */
export function insecureReach(name: string, world: AbilityWorld): InsecureReach[] {
  return world.endpoints
    .filter((endpoint) => endpoint.insecure && covers(name, endpoint.name))
    .map((endpoint) => ({ endpoint: endpoint.name, reason: insecureReason(endpoint.name, world) }))
}

function insecureReason(endpoint: string, world: AbilityWorld): string {
  if (endpoint === 'auth.create') {
    return 'lets the holder mint authorizations with any abilities, reaching any part of the account'
  }
  if (endpoint.startsWith(`${world.serviceName}.`)) {
    return "lets the holder change stored procedures, which run with the account's full authority, and inject harmful behaviour"
  }
  return 'the engine marks it insecure'
}

/** Whether an authorization holding these abilities may call `auth.create`. */
export const holdsAuthCreate = (abilities: readonly string[]): boolean =>
  abilities.some((raw) => {
    const checked = parseAbility(raw)
    return checked.ok && covers(checked.ability.name, 'auth.create')
  })
