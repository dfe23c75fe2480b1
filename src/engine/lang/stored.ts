import type { Json } from '../store'
import { Decimal, Timestamp, isRecord, type Value } from './value'

/**
 * How values are kept in the store, which holds only JSON (IndexedDB's structured clone drops
 * class prototypes, SQLite keeps JSON text, export writes JSON): a decimal is
 * `{"$decimal": "0.1e1"}`, a timestamp `{"$timestamp": "2023-11-14T22:13:20.5Z"}`, and an
 * object of the caller's that would read as one of those (one member named `$decimal`,
 * `$timestamp` or `$escape`) is wrapped as `{"$escape": {...}}`. Values without either
 * extension are stored exactly as they are.
 */
const DECIMAL = '$decimal'
const TIMESTAMP = '$timestamp'
const ESCAPE = '$escape'
const TAGS = new Set([DECIMAL, TIMESTAMP, ESCAPE])

/** The name of an object's only member; `undefined` unless it has exactly one. */
function soleKey(object: object): string | undefined {
  const keys = Object.keys(object)
  return keys.length === 1 ? keys[0] : undefined
}

const mapMembers = <T, U>(object: { [key: string]: T }, map: (item: T) => U) =>
  Object.fromEntries(Object.entries(object).map(([key, item]) => [key, map(item)]))

/** A value as the store keeps it. Recursive: values are held to the depth limit first. */
export function toStored(value: Value): Json {
  if (value instanceof Decimal) return { [DECIMAL]: value.text }
  if (value instanceof Timestamp) return { [TIMESTAMP]: value.toISOString() }
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(toStored)
  const members = mapMembers(value, toStored)
  const key = soleKey(value)
  return key !== undefined && TAGS.has(key) ? { [ESCAPE]: members } : members
}

/**
 * A stored value read back. Lenient: a tag whose content is not what `toStored` writes (an
 * import edited by hand) is read as the plain object it is, never an error.
 */
export function fromStored(json: Json): Value {
  if (json === null || typeof json !== 'object') return json
  if (Array.isArray(json)) return json.map(fromStored)
  const key = soleKey(json)
  const content = key === undefined ? undefined : json[key]
  if (key === DECIMAL && typeof content === 'string') {
    const decimal = Decimal.parse(content)
    if (decimal) return decimal
  }
  if (key === TIMESTAMP && typeof content === 'string') {
    const timestamp = Timestamp.parseISO(content)
    if (timestamp) return timestamp
  }
  if (key === ESCAPE && isRecord(content)) return mapMembers(content, fromStored)
  return mapMembers(json, fromStored)
}
