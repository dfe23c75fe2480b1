import type { Json, SecretRecord } from '../engine/store'

/** A copy of a JSON value: a string, number, boolean or `null` is its own. */
export function copyJson<T extends Json | undefined>(value: T): T {
  const type = typeof value
  const own = value == null || type === 'string' || type === 'number' || type === 'boolean'
  // Anything else is copied deep, and what cannot be copied is refused.
  return own ? value : structuredClone(value)
}

/** A copy of a secret: every field of one is a string, a number or `null`. */
export const copySecret = (secret: SecretRecord | undefined): SecretRecord | undefined =>
  secret && { ...secret }
