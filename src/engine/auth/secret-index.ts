import type { Mutation, SecretRecord, Store } from '../store'
import { sameText, toBase64Url, utf8 } from '../bytes'
import { webCryptoHmac, type Hmac, type HmacFactory } from './hmac'
import { platformBytes } from './random'

/**
 * Finds the secret a presented key belongs to through a keyed digest of the key, so a call
 * costs one lookup however many secrets the account holds.
 *
 * The index maps HMAC-SHA-256(index key, secret key) to the secret's id. The index key is
 * random and never leaves memory, so the map's own timing says nothing about any key; the key
 * found is then compared with the presented one in constant time.
 *
 * A key once found is remembered with its secret's id (at most `REMEMBERED` keys), so that a
 * client calling with it again pays for no digest: the secret is still read from the store and
 * compared in constant time on every call, so its state (rolled, expired) is always the
 * store's. The map holds only keys that were found, as the store does.
 *
 * Whoever adds secrets (or replaces them all) writes a new `secretsVersion` in the same commit
 * (`secretsChanged()`); an index built for another version is rebuilt, and what it remembered
 * forgotten, before it is used, so secrets created in another tab or process, or by an import,
 * are found, and a key reset and made again finds its new secret.
 */
export const SECRETS_VERSION = 'secretsVersion'

/** How many keys found an index remembers. */
export const REMEMBERED = 1024

/** The mutation that tells every index over the store to rebuild. */
export const secretsChanged = (): Mutation => ({
  op: 'putMeta',
  key: SECRETS_VERSION,
  value: toBase64Url(platformBytes('secrets-version', 12)),
})

interface Built {
  version: unknown
  ids: Map<string, string>
  /** Keys found since it was built, with their secret's id. */
  found: Map<string, string>
}

interface Index {
  hmac: Promise<Hmac>
  built?: Promise<Built>
}

const indexes = new WeakMap<Store, Index>()

/** Makes the index over `store` compute its digests with `hmac`, unless it already has one. */
export function useHmac(store: Store, hmac?: HmacFactory): void {
  indexOf(store, hmac)
}

function indexOf(store: Store, hmac: HmacFactory = webCryptoHmac): Index {
  let index = indexes.get(store)
  if (!index) {
    index = { hmac: Promise.resolve(hmac(platformBytes('index-key', 32))) }
    indexes.set(store, index)
  }
  return index
}

/** The secret whose key is `token`, or `undefined`. */
export async function findSecret(store: Store, token: string): Promise<SecretRecord | undefined> {
  const index = indexOf(store)
  const version = await store.getMeta(SECRETS_VERSION)
  let built = await index.built
  if (!built || built.version !== version) {
    index.built = build(store, await index.hmac)
    built = await index.built
  }
  let id = built.found.get(token)
  if (id === undefined) id = built.ids.get(await digest(await index.hmac, token))
  const secret = id === undefined ? undefined : await store.getSecret(id)
  if (!secret || !sameText(token, secret.key)) return undefined
  if (!built.found.has(token)) {
    if (built.found.size >= REMEMBERED) built.found.delete(built.found.keys().next().value!)
    built.found.set(token, secret.id)
  }
  return secret
}

async function build(store: Store, hmac: Hmac): Promise<Built> {
  // The version is read before the secrets: a change in between only causes another rebuild.
  const version = await store.getMeta(SECRETS_VERSION)
  const ids = new Map<string, string>()
  for (const secret of await store.listSecrets()) ids.set(await digest(hmac, secret.key), secret.id)
  return { version, ids, found: new Map() }
}

async function digest(hmac: Hmac, token: string): Promise<string> {
  return toBase64Url(await hmac(utf8(token)))
}
