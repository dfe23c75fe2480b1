import { Decimal } from './decimal'
import { Timestamp } from './timestamp'

export { Decimal, Timestamp }

/**
 * A value of the language: what JSON carries, and the two MessagePack extensions the real
 * clients send, a `Decimal` (type 0) and a `Timestamp` (type -1). Inside the engine they are
 * instances of those classes; at each edge they are converted: to their extension in
 * MessagePack, to a JSON number and an ISO 8601 string in JSON (`json-text.ts`), and to tagged
 * JSON objects in the store (`stored.ts`), which holds nothing but JSON.
 */
export type Value =
  null | boolean | number | string | Decimal | Timestamp | Value[] | { [key: string]: Value }

/** A decimal or a timestamp: a leaf, though JavaScript sees an object. */
export type Extension = Decimal | Timestamp

export function isExtension(value: unknown): value is Extension {
  return value instanceof Decimal || value instanceof Timestamp
}

/** A JSON object of the language: not an array, not null, not a decimal or a timestamp. */
export function isRecord(value: unknown): value is { [key: string]: Value } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !isExtension(value)
}
