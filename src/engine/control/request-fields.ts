// Reading a control-plane request: its JSON body, the fields of the body and of the query, and
// its path's segments, each a 400 (or a 415) a caller can act on when it is not what the route
// reads.

import { readSeed } from '../auth/random'
import { InvalidError, UnsupportedMediaError } from '../errors'
import type { SimulateCall } from '../insight'
import { isObject } from '../runtime/types'
import type { Pause } from '../runtime/turns'
import type { Json } from '../store'
import { decodeText } from '../wire/body'
import type { Call } from '../wire/call'
import { mediaTypeOf } from '../wire/formats'
import { parseJsonInTurns } from './in-turns'

/** A control-plane request's body: a JSON object (empty when blank), or a 415 or 400 saying why not. */
export async function readJsonObject(
  call: Call,
  limit: number,
  pause?: Pause,
): Promise<Record<string, Json>> {
  const type = mediaTypeOf(call.header('content-type'))
  if (type !== 'application/json') {
    throw new UnsupportedMediaError(
      `the account control plane reads JSON: send the body with content-type: application/json${type ? `, not ${type}` : ''}`,
    )
  }
  const text = decodeText(await call.body(limit))
  if (text.trim() === '') return {}
  const value = await parseJsonInTurns(text, pause)
  if (!isObject(value)) throw new InvalidError('the body must be a JSON object')
  return value
}

/** Field `field` of a body when given (`null` reads as absent), of `type`, or a 400. */
export function optional(
  body: Record<string, Json>,
  field: string,
  type: 'string',
): string | undefined
export function optional(
  body: Record<string, Json>,
  field: string,
  type: 'number',
): number | undefined
export function optional(
  body: Record<string, Json>,
  field: string,
  type: 'string' | 'number' | 'boolean',
) {
  const value = body[field]
  if (value === undefined || value === null) return undefined
  if (typeof value !== type) throw new InvalidError(`\`${field}' must be a ${type}`)
  return value
}

/** Field `field` of a body, of `type`, or a 400 saying it is required. */
export function required(body: Record<string, Json>, field: string, type: 'string'): string
export function required(body: Record<string, Json>, field: string, type: 'number'): number
export function required(body: Record<string, Json>, field: string, type: 'boolean'): boolean
export function required(
  body: Record<string, Json>,
  field: string,
  type: 'string' | 'number' | 'boolean',
) {
  const value = body[field]
  if (typeof value !== type) throw new InvalidError(`\`${field}' is required and must be a ${type}`)
  return value
}

/** A reset's `seed`: a seed to start with from now on, `null` for none, absent to keep it. */
export function seedOf(body: Record<string, Json>): { seed?: string | null } {
  if (!('seed' in body)) return {}
  if (body.seed === null) return { seed: null }
  const seed = readSeed(body.seed)
  if (typeof seed !== 'string') throw new InvalidError(seed.problem)
  return { seed }
}

/** The `calls` of a simulate or coverage body. */
export function callsOf(body: Record<string, Json>): SimulateCall[] {
  const calls = body.calls
  if (!Array.isArray(calls)) {
    throw new InvalidError(
      '`calls\' is required: an array of calls such as {"endpoint": "keyv.get", "args": {"key": "k"}}',
    )
  }
  return calls as unknown as SimulateCall[]
}

/** The `tokens` of a body that asks about authorizations (none by default). */
export function tokensOf(body: Record<string, Json>): string[] {
  const tokens = body.tokens ?? []
  if (!Array.isArray(tokens)) {
    throw new InvalidError("`tokens' must be an array of the authorizations to ask about")
  }
  return tokens as unknown as string[]
}

/** Query parameter `name`: a branch's id. */
export function textOf(query: URLSearchParams, name: string): string {
  const value = query.get(name)
  if (value === null || value === '') {
    throw new InvalidError(
      `\`${name}' is required: the id of a branch (GET _account/branches lists them)`,
    )
  }
  return value
}

/** Query parameter `name`: an exchange's id. */
export function exchangeOf(query: URLSearchParams, name: string): number {
  const value = query.get(name)
  if (value === null || !/^\d{1,15}$/.test(value)) {
    throw new InvalidError(`\`${name}' is required: the id of an exchange, a whole number`)
  }
  return Number(value)
}

/** Query parameter `after`: the exchange to list from (0 by default). */
export function afterOf(query: URLSearchParams): number {
  const after = query.get('after')
  if (after === null) return 0
  if (!/^\d{1,15}$/.test(after)) {
    throw new InvalidError("`after' must be the id of an exchange, a whole number")
  }
  return Number(after)
}

/** A route's `:name` segment, decoded. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw new InvalidError(`\`${segment}' is not a valid URL path segment`)
  }
}
