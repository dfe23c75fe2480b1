import { isAlive } from '../auth/credentials'
import { andThen, platformRandom, prefixed, type Maybe, type Random } from '../auth/random'
import { findSecret, secretsChanged } from '../auth/secret-index'
import { isTime, MAX_TIME_TEXT } from '../clock'
import { ConflictError, ForbiddenError, InvalidError, UndefinedError } from '../errors'
import { StoreConflictError, type SecretRecord, type Store } from '../store'

export type SecretState = 'active' | 'rolling' | 'expired'

/** A secret as account settings show it. Times are Unix seconds. */
export interface SecretView extends SecretRecord {
  state: SecretState
}

/** Secret ids, as the account makes them: `sec_` and base64url characters. */
export const SECRET_ID_PATTERN = /^sec_[A-Za-z0-9_-]{1,64}$/

/** Secret keys are opaque: base64url characters only, never a `.` (that marks a signed token). */
export const SECRET_KEY_PATTERN = /^[A-Za-z0-9_-]{8,256}$/

export function viewSecret(secret: SecretRecord, now: number): SecretView {
  const state: SecretState = !isAlive(secret, now)
    ? 'expired'
    : secret.expiresAt === null
      ? 'active'
      : 'rolling'
  return { ...secret, state }
}

/**
 * The most secrets an account keeps, dead ones included (a rolled secret stays, so that its
 * tokens are known as rolled): past it, creating or rolling one is refused until a reset.
 */
export const MAX_SECRETS = 100

/**
 * 403 once the account holds `MAX_SECRETS`; checked before each secret is made. Answers how
 * many it holds: what keys a seeded account's next secret (secrets are never deleted but by a
 * reset, which makes a new signing key, so the count never comes back within one timeline).
 */
async function checkRoom(store: Store): Promise<number> {
  const held = (await store.listSecrets()).length
  if (held < MAX_SECRETS) return held
  throw new ForbiddenError(
    `the account holds ${held} secrets, live and rolled, the most it may (${MAX_SECRETS}): reset the account (POST /_account/reset) to go back to its starting secrets`,
    'too_many_secrets',
  )
}

function checkKey(key: string | undefined): void {
  if (key !== undefined && !SECRET_KEY_PATTERN.test(key)) {
    throw new InvalidError('a secret key must be 8 to 256 characters of A-Z, a-z, 0-9, - and _')
  }
}

/**
 * A new secret: its id `sec_…` and (unless given) its key `sk_…`, both starting with a letter so
 * that no command line reads one as a flag, drawn from `random` as the `held`-th secret.
 */
function newSecret(
  now: number,
  key: string | undefined,
  random: Random,
  held: number,
): Maybe<SecretRecord> {
  const context = String(held)
  return andThen(prefixed('sec_', random.bytes('secret-id', context, 9)), (id) =>
    andThen(key ?? prefixed('sk_', random.bytes('secret-key', context, 32)), (made) => ({
      id,
      key: made,
      createdAt: now,
      expiresAt: null,
      rolledTo: null,
    })),
  )
}

export async function createSecret(
  store: Store,
  now: number,
  key?: string,
  random: Random = platformRandom,
): Promise<SecretView> {
  checkKey(key)
  if (key !== undefined && (await findSecret(store, key))) {
    throw new ConflictError('the account already has that secret key')
  }
  const secret = await newSecret(now, key, random, await checkRoom(store))
  await store.commit([{ op: 'putSecret', secret }, secretsChanged()])
  return viewSecret(secret, now)
}

/**
 * Rolls a secret: a replacement is created now and the old secret dies at `at` (now when
 * absent). Rolling a secret whose roll is already scheduled only brings its end closer and
 * returns the replacement it already has.
 */
export async function rollSecret(
  store: Store,
  now: number,
  id: string,
  at = now,
  random: Random = platformRandom,
): Promise<SecretView> {
  if (!isTime(at) || at < now) {
    throw new InvalidError(
      `\`at' must be a Unix time in seconds, not before now (${Math.floor(now)}) and at most ${MAX_TIME_TEXT}`,
    )
  }
  for (let attempt = 0; ; attempt++) {
    const old = await store.getSecret(id)
    if (!old) throw new UndefinedError(`no secret \`${id}'`)
    if (!isAlive(old, now)) throw new ConflictError(`secret \`${id}' has already expired`)
    const expect = {
      op: 'expectSecret',
      id,
      rolledTo: old.rolledTo,
      expiresAt: old.expiresAt,
    } as const
    const expiresAt = Math.min(old.expiresAt ?? at, at)
    try {
      if (old.rolledTo) {
        await store.commit([expect, { op: 'putSecret', secret: { ...old, expiresAt } }])
        const replacement = await store.getSecret(old.rolledTo)
        if (!replacement) throw new ConflictError(`the replacement of secret \`${id}' is gone`)
        return viewSecret(replacement, now)
      }
      const replacement = await newSecret(now, undefined, random, await checkRoom(store))
      await store.commit([
        expect,
        { op: 'putSecret', secret: replacement },
        secretsChanged(),
        { op: 'putSecret', secret: { ...old, expiresAt, rolledTo: replacement.id } },
      ])
      return viewSecret(replacement, now)
    } catch (error) {
      if (!(error instanceof StoreConflictError) || attempt >= 3) throw error
    }
  }
}

/**
 * Cancels a scheduled roll: the secret no longer expires, and its authorizations and cursors
 * live on. The replacement the roll made stays (a secret of its own; rolling again later reuses
 * it). 409 for a secret whose roll is not scheduled (active, or already expired).
 */
export async function cancelRoll(store: Store, now: number, id: string): Promise<SecretView> {
  for (let attempt = 0; ; attempt++) {
    const old = await store.getSecret(id)
    if (!old) throw new UndefinedError(`no secret \`${id}'`)
    if (!isAlive(old, now)) throw new ConflictError(`secret \`${id}' has already expired`)
    if (old.expiresAt === null) throw new ConflictError(`secret \`${id}' has no roll scheduled`)
    const kept = { ...old, expiresAt: null }
    try {
      await store.commit([
        { op: 'expectSecret', id, rolledTo: old.rolledTo, expiresAt: old.expiresAt },
        { op: 'putSecret', secret: kept },
        secretsChanged(),
      ])
      return viewSecret(kept, now)
    } catch (error) {
      if (!(error instanceof StoreConflictError) || attempt >= 3) throw error
    }
  }
}
