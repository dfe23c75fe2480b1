import type { Json } from '../../engine'
import {
  insecureReach,
  MAX_ABILITIES_LENGTH,
  namesSomething,
  parseAbility,
  type AbilityWorld,
} from '../shared/abilities'
import {
  DATE_LIMIT_SECONDS,
  formatDuration,
  formatNumber,
  formatTime,
  isDateTime,
  millisecondsWarning,
} from '../shared/format'
import { toUnixSeconds, type Zone } from '../shared/date-time'
import { BODY_FORMATS, type BodyFormat, type CallDraft } from '../shared/wire'

export { toDateTimeLocal, toUnixSeconds, type Zone } from '../shared/date-time'

/** The shortest `ttl` the engine takes, in seconds (decision 024). */
export const MIN_TTL = 1

/** The composer's form, as typed: nothing is converted until the request is planned. */
export interface Composition {
  abilities: string[]
  insecure: boolean
  /** A `datetime-local` value, or empty for none. */
  expiry: string
  zone: Zone
  /** Seconds, as typed, or empty for none. */
  ttl: string
  format: BodyFormat
}

export const emptyComposition: Composition = {
  abilities: [],
  insecure: false,
  expiry: '',
  zone: 'utc',
  ttl: '',
  format: 'tuples',
}

/**
 * What the form says about the composition before it is sent.
 * - `form`: the form refuses it in its own words; nothing is sent until it is fixed.
 * - `engine`: the engine will answer 400; sending shows its own refusal.
 * - `warning`: the engine accepts it, but it may not do what you expect.
 */
export interface Finding {
  level: 'form' | 'engine' | 'warning'
  /** Plain words; names in `backticks'. */
  message: string
}

/** The arguments of `auth.create`, in the order the client writes them, and what is wrong. */
export interface Planned {
  args: Array<readonly [string, Json]>
  findings: Finding[]
  /** Unix seconds the authorization would expire at, as the engine will compute it. */
  endsAt?: number
  expiry?: number
  ttl?: number
}

/** Reads the composition at `now` (virtual Unix seconds) into `auth.create` arguments. */
export function planComposition(
  composition: Composition,
  now: number | undefined,
  world: AbilityWorld | undefined,
): Planned {
  const findings: Finding[] = []
  const { abilities, insecure } = composition
  if (abilities.length === 0) {
    findings.push({
      level: 'engine',
      message: 'Choose at least one ability: the engine refuses an authorization with none (400).',
    })
  }
  const total = abilities.reduce((sum, ability) => sum + ability.length, 0)
  if (total > MAX_ABILITIES_LENGTH) {
    findings.push({
      level: 'engine',
      message: `The abilities take ${total} characters; the engine allows ${MAX_ABILITIES_LENGTH} in all (400).`,
    })
  }
  for (const raw of abilities) {
    const checked = parseAbility(raw)
    if (!checked.ok) {
      findings.push({
        level: 'engine',
        message: `${checked.problem}. The engine refuses it (400).`,
      })
      continue
    }
    if (!world) continue
    const { name } = checked.ability
    for (const reach of insecureReach(name, world)) {
      const covering = name === reach.endpoint ? '' : ` (it covers \`${reach.endpoint}')`
      findings.push({
        level: insecure ? 'warning' : 'engine',
        message: `\`${raw}' is insecure${covering}: it ${reach.reason}. ${
          insecure
            ? 'Granted because `insecure: true` is on.'
            : 'It needs `insecure: true`; without it the engine answers 400.'
        }`,
      })
    }
    if (!namesSomething(name, world)) {
      findings.push({
        level: 'warning',
        message: name.startsWith('lib.')
          ? `No stored procedure \`${name.slice(4)}' exists now: \`${raw}' grants nothing until one is created under that name.`
          : `\`${raw}' names nothing that exists: the engine accepts it, and it grants nothing.`,
      })
    }
  }

  if (insecure && world && abilities.length > 0) {
    const needed = abilities.some((raw) => {
      const checked = parseAbility(raw)
      return checked.ok && insecureReach(checked.ability.name, world).length > 0
    })
    if (!needed) {
      findings.push({
        level: 'warning',
        message:
          'No chosen ability needs `insecure: true`; it is sent anyway, and the authorization is marked insecure.',
      })
    }
  }

  const args: Array<readonly [string, Json]> = [['abilities', abilities]]
  if (insecure) args.push(['insecure', true])

  const planned: Planned = { args, findings }
  const moments: number[] = []
  if (composition.expiry.trim() !== '') {
    const expiry = toUnixSeconds(composition.expiry.trim(), composition.zone)
    if (expiry === undefined) {
      findings.push({ level: 'form', message: 'The expiry is not a date and time.' })
    } else if (now !== undefined && expiry <= now) {
      findings.push({
        level: 'form',
        message: `The expiry ${formatTime(expiry)} has already passed on the virtual clock (now ${formatTime(now)}). Choose a later moment, or use a time to live.`,
      })
    } else {
      args.push(['expiry', expiry])
      planned.expiry = expiry
      moments.push(expiry)
      const milliseconds = millisecondsWarning(expiry)
      if (milliseconds) findings.push({ level: 'warning', message: milliseconds })
    }
  }
  if (composition.ttl.trim() !== '') {
    const ttl = Number(composition.ttl)
    if (!Number.isFinite(ttl) || ttl < MIN_TTL) {
      findings.push({
        level: 'form',
        message: `The time to live must be a number of seconds, at least ${MIN_TTL}: the engine refuses a shorter one, which would expire as it is made.`,
      })
    } else {
      args.push(['ttl', ttl])
      planned.ttl = ttl
      if (now !== undefined) moments.push(now + ttl)
      if (now !== undefined && !isDateTime(now + ttl)) {
        // The engine refuses it; in a body, only as a number it cannot carry exactly.
        findings.push({
          level: 'form',
          message: `The time to live, ${formatNumber(ttl)} seconds (${formatDuration(ttl)}), would end after ${formatTime(DATE_LIMIT_SECONDS)}, the last moment a date can hold: at most ${formatNumber(Math.floor(DATE_LIMIT_SECONDS - now))} seconds from now.`,
        })
      }
    }
  }
  if (moments.length > 0) planned.endsAt = Math.min(...moments)
  return planned
}

/** The `auth.create` call a composition becomes, signed with `token`. */
export function toDraft(planned: Planned, token: string, format: BodyFormat): CallDraft {
  return { endpoint: 'auth.create', token, format, accept: '', args: planned.args }
}

/**
 * The composition kept in the view's URL (`#/authorizations?ability=type&ttl=60`), so that it
 * survives going to another view and back, and can be shared as a link.
 */
export function compositionToParams(composition: Composition): URLSearchParams {
  const params = new URLSearchParams()
  for (const ability of composition.abilities) params.append('ability', ability)
  if (composition.insecure) params.set('insecure', 'true')
  if (composition.expiry) params.set('expiry', composition.expiry)
  if (composition.zone !== 'utc') params.set('zone', composition.zone)
  if (composition.ttl) params.set('ttl', composition.ttl)
  if (composition.format !== emptyComposition.format) params.set('format', composition.format)
  return params
}

export function compositionFromParams(params: URLSearchParams): Composition {
  const format = params.get('format')
  return {
    abilities: [...new Set(params.getAll('ability'))],
    insecure: params.get('insecure') === 'true',
    expiry: params.get('expiry') ?? '',
    zone: params.get('zone') === 'local' ? 'local' : 'utc',
    ttl: params.get('ttl') ?? '',
    format: (BODY_FORMATS as readonly string[]).includes(format ?? '')
      ? (format as BodyFormat)
      : emptyComposition.format,
  }
}
