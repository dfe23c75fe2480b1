import type { Mutation, SecretRecord, Store } from '../store'
import { randomBytes, timingSafeEqual, toBase64Url, utf8 } from './bytes'

/**
 * Finds the secret a presented key belongs to through a keyed digest of the key, so a call
 * costs one lookup however many secrets the account holds.
 *
 * The index maps HMAC-SHA-256(index key, secret key) to the secret's id. The index key is
 * random and never leaves memory, so the map's own timing says nothing about any key; the key
 * found is then compared with the presented one in constant time.
 *
 * Whoever adds secrets (or replaces them all) writes a new `secretsVersion` in the same commit
 * (`secretsChanged()`); an index built for another version is rebuilt before it is used, so
 * secrets created in another tab or by an import are found too.
 */
export const SECRETS_VERSION = 'secretsVersion'

/** The mutation that tells every index over the store to rebuild. */
export const secretsChanged = (): Mutation => ({
  op: 'putMeta',
  key: SECRETS_VERSION,
  value: toBase64Url(randomBytes(12)),
})

interface Built {
  version: unknown
  ids: Map<string, string>
}

interface Index {
  key: Promise<CryptoKey>
  built?: Promise<Built>
}

const indexes = new WeakMap<Store, Index>()

/** The secret whose key is `token`, or `undefined`. */
export async function findSecret(store: Store, token: string): Promise<SecretRecord | undefined> {
  let index = indexes.get(store)
  if (!index) {
    index = { key: hmacKey() }
    indexes.set(store, index)
  }
  const version = await store.getMeta(SECRETS_VERSION)
  let built = await index.built
  if (!built || built.version !== version) {
    index.built = build(store, await index.key)
    built = await index.built
  }
  const id = built.ids.get(await digest(await index.key, token))
  const secret = id === undefined ? undefined : await store.getSecret(id)
  if (!secret || !timingSafeEqual(utf8(token), utf8(secret.key))) return undefined
  return secret
}

async function build(store: Store, key: CryptoKey): Promise<Built> {
  // The version is read before the secrets: a change in between only causes another rebuild.
  const version = await store.getMeta(SECRETS_VERSION)
  const ids = new Map<string, string>()
  for (const secret of await store.listSecrets()) ids.set(await digest(key, secret.key), secret.id)
  return { version, ids }
}

function hmacKey(): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', randomBytes(32), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ])
}

async function digest(key: CryptoKey, token: string): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.sign('HMAC', key, utf8(token))))
}
