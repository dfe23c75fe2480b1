import type { SecretRecord } from '../engine/store'

/** Orders strings by UTF-16 code unit, the order of `<` and of IndexedDB string keys. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** Orders secrets oldest first, then by id. */
export function compareSecrets(a: SecretRecord, b: SecretRecord): number {
  return a.createdAt - b.createdAt || compareStrings(a.id, b.id)
}

/**
 * The least string greater than every string that starts with `prefix`, or `undefined` when
 * there is none (the prefix is empty or all `\uffff`). Keys with the prefix are exactly those
 * `k` with `prefix <= k < prefixEnd(prefix)`.
 */
export function prefixEnd(prefix: string): string | undefined {
  let end = prefix.length
  while (end > 0 && prefix.charCodeAt(end - 1) === 0xffff) end--
  if (end === 0) return undefined
  return prefix.slice(0, end - 1) + String.fromCharCode(prefix.charCodeAt(end - 1) + 1)
}

/** A scan's `limit` as a count of keys: whole, not negative, `Infinity` for no limit. */
export function scanLimit(limit: number): number {
  return limit > 0 ? Math.floor(limit) : 0
}
