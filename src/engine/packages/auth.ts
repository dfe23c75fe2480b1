import { covers, MAX_ABILITIES_LENGTH, parseAbility } from '../auth/abilities'
import { randomBytes, toBase64Url } from '../auth/bytes'
import type { AuthorizationPayload } from '../auth/credentials'
import { nowSeconds } from '../clock'
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
          n: toBase64Url(randomBytes(9)),
        }
        return call.ctx.signer.sign('authorization', payload)
      },
    }),
  ]
}

/**
 * The earliest of `expiry`, creation plus `ttl` and, when an authorization mints it, that
 * authorization's own expiry (a child never outlives its parent); `null` when none applies.
 */
function expiresAt(
  givenExpiry: number | Decimal | undefined,
  givenTtl: number | Decimal | undefined,
  { principal }: CallContext,
  now: number,
): number | null {
  const expiry = givenExpiry === undefined ? undefined : asNumber(givenExpiry)
  const ttl = givenTtl === undefined ? undefined : asNumber(givenTtl)
  const moments: number[] = []
  if (principal.kind === 'authorization' && principal.expiresAt !== null) {
    moments.push(principal.expiresAt)
  }
  if (expiry !== undefined) {
    if (!(expiry > now)) {
      throw new InvalidError(
        `invalid argument \`expiry' for \`auth.create' (must be a Unix time in seconds after now, ${Math.floor(now)})`,
      )
    }
    moments.push(expiry)
  }
  if (ttl !== undefined) {
    if (!(ttl > 0))
      throw new InvalidError(
        "invalid argument `ttl' for `auth.create' (must be more than 0 seconds)",
      )
    moments.push(now + ttl)
  }
  return moments.length ? Math.min(...moments) : null
}
