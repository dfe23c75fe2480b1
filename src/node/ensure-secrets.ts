import type { Account } from '../engine'

/**
 * Gives the account each of `keys` as a secret, unless it has that key already: what
 * `serve --secret` does at start. Several processes starting over one database at once may
 * each try to create the same secret; the store keeps one secret per key and refuses the
 * others, and each of those then finds the one that was made.
 */
export async function ensureSecrets(account: Account, keys: readonly string[]): Promise<void> {
  const has = async (key: string) =>
    (await account.listSecrets()).some((secret) => secret.key === key)
  for (const key of keys) {
    if (await has(key)) continue
    try {
      await account.createSecret({ key })
    } catch (error) {
      if (!(await has(key))) throw error
    }
  }
}
