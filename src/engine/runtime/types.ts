import type { Json } from '../store'
import { Decimal, isRecord, type Value } from '../lang/value'
import { assertJsonDepth, MAX_JSON_DEPTH } from '../lang/depth'

/**
 * Declared types of inputs and arguments, and the one coercion every value goes through.
 * Query strings and text bodies are text, so text coerces into every other type; a value that
 * arrived as data (a JSON or MessagePack value) keeps its type, strictly.
 */
export type TypeName =
  'any' | 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'strings' | 'proc'

/** Types a `@@` reference may name in its `type` option. */
export const REFERENCE_TYPES: readonly TypeName[] = [
  'any',
  'string',
  'number',
  'integer',
  'boolean',
  'array',
  'object',
]

const DECIMAL = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/

export const NOT_COERCIBLE: unique symbol = Symbol('not coercible')

/**
 * `value` as `type`, or `NOT_COERCIBLE`. Text is read into the type (`"1"` as an integer) only
 * when `fromText`: the value arrived as text, or a reference's `type` asks for the reading.
 */
export function coerce(
  value: Value,
  type: TypeName,
  fromText = true,
): Value | typeof NOT_COERCIBLE {
  if (
    !fromText &&
    typeof value === 'string' &&
    type !== 'string' &&
    type !== 'any' &&
    type !== 'proc'
  ) {
    return NOT_COERCIBLE
  }
  switch (type) {
    case 'any':
    case 'proc':
      return value
    case 'string':
      return typeof value === 'string' ? value : NOT_COERCIBLE
    case 'number':
      if (typeof value === 'number') return value
      // A decimal is a number, kept exact, as long as a double could hold it at all.
      if (value instanceof Decimal) return Number.isFinite(value.toNumber()) ? value : NOT_COERCIBLE
      // Decimal notation only: `Number` would also read "0x10" as 16 and "0b1" as 1.
      // Past 2^53 − 1 a double rounds: refused, as in JSON and MessagePack bodies.
      if (typeof value === 'string' && DECIMAL.test(value)) {
        const number = Number(value)
        if (Math.abs(number) <= Number.MAX_SAFE_INTEGER) return number
      }
      return NOT_COERCIBLE
    case 'integer':
      if (typeof value === 'number') return Number.isSafeInteger(value) ? value : NOT_COERCIBLE
      if (value instanceof Decimal) return value.toSafeInteger() ?? NOT_COERCIBLE
      if (typeof value === 'string' && /^\s*-?\d{1,15}\s*$/.test(value)) return Number(value)
      return NOT_COERCIBLE
    case 'boolean':
      if (typeof value === 'boolean') return value
      if (value === 'true' || value === 'false') return value === 'true'
      return NOT_COERCIBLE
    case 'array':
      if (Array.isArray(value)) return value
      return parsedFromText(value, '[') ?? NOT_COERCIBLE
    case 'object':
      if (isRecord(value)) return value
      return parsedFromText(value, '{') ?? NOT_COERCIBLE
    case 'strings': {
      let list: Value | undefined = value
      if (typeof value === 'string') {
        list = value.trim().startsWith('[') ? parsedFromText(value, '[') : value.split(',')
      }
      if (Array.isArray(list) && list.every((item) => typeof item === 'string')) return list
      return NOT_COERCIBLE
    }
  }
}

/** A JSON object, as `JSON.parse` gives one (the control plane's bodies, snapshots). */
export function isObject(value: unknown): value is { [key: string]: Json } {
  return isRecord(value)
}

function parsedFromText(value: Value, opener: '[' | '{'): Value | undefined {
  if (typeof value !== 'string' || !value.trim().startsWith(opener)) return undefined
  let parsed: Value
  try {
    parsed = JSON.parse(value) as Value
  } catch {
    return undefined
  }
  // Text parses into values as deep as it likes: hold them to the limit bodies have.
  assertJsonDepth(parsed, MAX_JSON_DEPTH, 'the value')
  if (opener === '[') return Array.isArray(parsed) ? parsed : undefined
  return isRecord(parsed) ? parsed : undefined
}
