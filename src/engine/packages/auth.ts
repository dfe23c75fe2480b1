import { covers, MAX_ABILITIES_LENGTH, parseAbility } from '../auth/abilities'
import { toBase64Url } from '../bytes'
import type { AuthorizationPayload } from '../auth/credentials'
import { isoTime, isTime, MAX_TIME, MAX_TIME_TEXT, nowSeconds } from '../clock'
import { InvalidError } from '../errors'
import { asNumber, type Decimal } from '../lang/decimal'
import { defineEndpoint, type CallContext } from '../runtime/endpoint'

/**
 * `auth.create`: mints an authorization limited to `abilities`, tied to the caller's root
 * secret. Insecure abilities (those covering an endpoint in `insecure`) need `insecure: true`.
 * 400 on malformed abilities, insecure abilities without `insecure`, or a bad expiry or ttl.
 */
export function authPackage(insecure: () => readonly string[]) {
  return [
    defineEndpoint({
      name: 'auth.create',
      summary: 'Creates an authorization limited to the given abilities.',
      insecure: true,
      args: {
        abilities: { type: 'strings', required: true, doc: 'endpoints or packages it may call' },
        insecure: { type: 'boolean', default: false, doc: 'allow insecure abilities' },
        expiry: { type: 'number', doc: 'Unix time (seconds) at which it expires' },
        ttl: { type: 'number', doc: 'seconds from now until it expires' },
      },
      async run(call) {
        const { abilities } = call.args
        if (abilities.length === 0) {
          throw new InvalidError(
            "invalid argument `abilities' for `auth.create' (must name at least one ability)",
          )
        }
        // A token travels in a header: keep it well under what HTTP servers accept there.
        if (
          abilities.reduce((total, ability) => total + ability.length, 0) > MAX_ABILITIES_LENGTH
        ) {
          throw new InvalidError(
            `invalid argument \`abilities' for \`auth.create' (at most ${MAX_ABILITIES_LENGTH} characters in all)`,
          )
        }
        const parsed = abilities.map(parseAbility)
        const dangerous = parsed.filter((a) => insecure().some((name) => covers(a.name, name)))
        if (dangerous.length > 0 && !call.args.insecure) {
          const names = dangerous.map((a) => `\`${a.raw}'`).join(', ')
          throw new InvalidError(
            `insecure abilities ${names} are only granted with \`insecure: true'`,
            'insecure_ability',
          )
        }
        const now = nowSeconds(call.ctx.clock)
        const payload: AuthorizationPayload = {
          s: call.ctx.principal.secretId,
          a: abilities,
          i: call.args.insecure,
          e: expiresAt(call.args.expiry, call.args.ttl, call.ctx, now),
          t: now,
          n: toBase64Url(await call.ctx.draw('nonce', 9)),
        }
        return call.ctx.signer.sign('authorization', payload)
      },
    }),
  ]
}

/** The shortest `ttl`: an authorization that lives less than a second is gone before it is used. */
export const MIN_TTL = 1

/**
 * An `expiry` this large is in the year 5138 or later read as seconds, but a time of this
 * century read as milliseconds: accepted as given, with a warning in the trace.
 */
const MILLISECONDS_LIKELY = 1e11

/**
 * The earliest of `expiry`, creation plus `ttl` and, when an authorization mints it, that
 * authorization's own expiry (a child never outlives its parent); `null` when none applies.
 * Every moment stays within `MAX_TIME`, so that it can always be written as a date.
 */
function expiresAt(
  givenExpiry: number | Decimal | undefined,
  givenTtl: number | Decimal | undefined,
  ctx: CallContext,
  now: number,
): number | null {
  const { principal } = ctx
  const expiry = givenExpiry === undefined ? undefined : asNumber(givenExpiry)
  const ttl = givenTtl === undefined ? undefined : asNumber(givenTtl)
  const moments: number[] = []
  if (principal.kind === 'authorization' && principal.expiresAt !== null) {
    moments.push(principal.expiresAt)
  }
  if (expiry !== undefined) {
    if (!(expiry > now) || !isTime(expiry)) {
      throw new InvalidError(
        `invalid argument \`expiry' for \`auth.create' (must be a Unix time in seconds after now, ${Math.floor(now)}, and at most ${MAX_TIME_TEXT})`,
      )
    }
    if (expiry >= MILLISECONDS_LIKELY) {
      ctx.warn(
        `\`expiry' ${expiry} is read as Unix seconds, ${isoTime(expiry)}; as milliseconds it would be ${isoTime(expiry / 1000)}: \`expiry' takes seconds`,
      )
    }
    moments.push(expiry)
  }
  if (ttl !== undefined) {
    const longest = Math.floor(MAX_TIME - now)
    if (!(ttl >= MIN_TTL) || !(ttl <= longest)) {
      throw new InvalidError(
        `invalid argument \`ttl' for \`auth.create' (must be from ${MIN_TTL} to ${longest} seconds, so that it expires by ${MAX_TIME_TEXT})`,
      )
    }
    moments.push(now + ttl)
  }
  return moments.length ? Math.min(...moments) : null
}
