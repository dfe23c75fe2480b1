import { UnauthorizedError } from '../errors'
import type { Principal } from './principal'
import type { SecretRecord, Store } from '../store'
import { parseAbility, type Ability } from './abilities'
import { readBearer } from './bearer'
import { findSecret } from './secret-index'
import type { Signer } from './signer'

/** What a presented token turned out to be. */
export type Identity =
  | { state: 'usable'; principal: Principal; details: TokenDetails }
  | { state: 'expired' | 'invalid'; reason: string; details?: TokenDetails }

/** What the playground may show about a token, once its signature checks out. */
export interface TokenDetails {
  kind: 'secret' | 'authorization'
  secretId: string
  abilities?: string[]
  insecure?: boolean
  createdAt?: number
  expiresAt: number | null
  /** For an authorization: when its root secret dies (it was rolled), or `null`. */
  secretExpiresAt?: number | null
}

/** The payload an authorization carries, signed. */
export interface AuthorizationPayload {
  /** The root secret: every authorization dies with it. */
  s: string
  a: string[]
  i: boolean
  e: number | null
  t: number
  n: string
}

export const isAlive = (secret: SecretRecord, now: number): boolean =>
  secret.expiresAt === null || secret.expiresAt > now

/** What an `authorization` header turned out to hold, usable or not. */
export type Presented = Identity | { state: 'missing' | 'malformed' }

/**
 * Reads `authorization: bearer <token>` into a principal, or fails with 401. `observer` learns
 * what was presented either way, for the request's trace.
 */
export async function authenticate(
  header: string | null,
  store: Store,
  signer: Signer,
  now: number,
  observer?: { observe(presented: Presented): void },
): Promise<Principal> {
  const bearer = readBearer(header)
  if (bearer.state === 'missing') {
    observer?.observe({ state: 'missing' })
    throw new UnauthorizedError('authorization is missing', 'missing')
  }
  if (bearer.state === 'malformed') {
    observer?.observe({ state: 'malformed' })
    throw new UnauthorizedError("the authorization header must be `bearer <token>'", 'malformed')
  }
  const identity = await identify(bearer.token, store, signer, now)
  observer?.observe(identity)
  if (identity.state === 'usable') return identity.principal
  throw new UnauthorizedError(`authorization is ${identity.state}`, identity.reason)
}

/** Tells what a token is and whether it can be used now. */
export async function identify(
  token: string,
  store: Store,
  signer: Signer,
  now: number,
): Promise<Identity> {
  if (token.includes('.')) return identifyAuthorization(token, store, signer, now)
  const found = await findSecret(store, token)
  if (!found) return { state: 'invalid', reason: 'unknown_token' }
  const details: TokenDetails = {
    kind: 'secret',
    secretId: found.id,
    createdAt: found.createdAt,
    expiresAt: found.expiresAt,
  }
  if (!isAlive(found, now)) return { state: 'expired', reason: 'secret_rolled', details }
  return { state: 'usable', principal: { kind: 'secret', secretId: found.id }, details }
}

/** The abilities of each verified payload, parsed once: payloads are frozen and kept by the signer. */
const parsedAbilities = new WeakMap<object, readonly Ability[]>()

function abilitiesOf(payload: AuthorizationPayload): readonly Ability[] {
  let abilities = parsedAbilities.get(payload)
  if (!abilities) {
    abilities = Object.freeze(payload.a.map((raw) => Object.freeze(parseAbility(raw))))
    parsedAbilities.set(payload, abilities)
  }
  return abilities
}

async function identifyAuthorization(
  token: string,
  store: Store,
  signer: Signer,
  now: number,
): Promise<Identity> {
  const payload = await signer.verify('authorization', token)
  if (!payload || !isAuthorizationPayload(payload))
    return { state: 'invalid', reason: 'bad_signature' }
  const details: TokenDetails = {
    kind: 'authorization',
    secretId: payload.s,
    abilities: payload.a,
    insecure: payload.i,
    createdAt: payload.t,
    expiresAt: payload.e,
  }
  const secret = await store.getSecret(payload.s)
  details.secretExpiresAt = secret ? secret.expiresAt : null
  if (!secret) return { state: 'invalid', reason: 'secret_unknown', details }
  const rolled = !isAlive(secret, now)
  // The first cause in time names the refusal: a token that expired before its secret's roll
  // took effect is expired, whatever became of its secret since (decision 087).
  if (payload.e !== null && payload.e <= now && (!rolled || payload.e <= secret.expiresAt!)) {
    return { state: 'expired', reason: 'expired', details }
  }
  if (rolled) return { state: 'invalid', reason: 'secret_rolled', details }
  return {
    state: 'usable',
    details,
    principal: {
      kind: 'authorization',
      secretId: payload.s,
      abilities: abilitiesOf(payload),
      insecure: payload.i,
      expiresAt: payload.e,
    },
  }
}

function isAuthorizationPayload(
  value: Readonly<Record<string, unknown>>,
): value is AuthorizationPayload & Record<string, unknown> {
  return (
    typeof value.s === 'string' &&
    Array.isArray(value.a) &&
    value.a.every((ability) => typeof ability === 'string') &&
    typeof value.i === 'boolean' &&
    (value.e === null || typeof value.e === 'number') &&
    typeof value.t === 'number'
  )
}
