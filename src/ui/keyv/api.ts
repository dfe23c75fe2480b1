import type { Json } from '../../engine'
import type { PlaygroundConfig } from '../shared/config'
import { callEndpoint, literal } from '../shared/endpoint-call'

/**
 * The key-value endpoints, called as a client calls them, with the token the view acts with:
 * an authorization sees exactly what its abilities reach.
 */

export interface KeyPage {
  keys: string[]
  /** The `x-cursor` of the answer: empty on the last page. */
  next: string
}

export interface ScanRequest {
  bucket: string
  prefix: string
  count: number
  /** The previous page's `x-cursor`; empty for the first page. */
  cursor: string
}

/** One page of keys through `keyv.scan`, with the token's limits. */
export async function scanKeys(
  config: PlaygroundConfig,
  token: string,
  { bucket, prefix, count, cursor }: ScanRequest,
): Promise<KeyPage> {
  const args: Array<[string, Json]> = [
    ['bucket', bucket],
    ['prefix', prefix],
    ['count', count],
  ]
  if (cursor) args.push(['cursor', cursor])
  const answer = await callEndpoint(config, { endpoint: 'keyv.scan', token, args })
  return { keys: answer.value as string[], next: answer.headers.get('x-cursor') ?? '' }
}

/** A key's value through `keyv.get` (`null` for none). */
export async function getValue(
  config: PlaygroundConfig,
  token: string,
  bucket: string,
  key: string,
): Promise<Json> {
  const args: Array<[string, Json]> = [
    ['bucket', bucket],
    ['key', key],
  ]
  return (await callEndpoint(config, { endpoint: 'keyv.get', token, args })).value
}

/** Stores a value through `keyv.set`; the value travels as a literal, so it stays data. */
export async function setValue(
  config: PlaygroundConfig,
  token: string,
  { bucket, key, value }: { bucket: string; key: string; value: Json },
): Promise<void> {
  const args: Array<[string, Json]> = [
    ['bucket', bucket],
    ['key', key],
    ['value', literal(value)],
  ]
  await callEndpoint(config, { endpoint: 'keyv.set', token, args })
}

/** Removes a key through `keyv.delete`. */
export async function deleteKey(
  config: PlaygroundConfig,
  token: string,
  { bucket, key }: { bucket: string; key: string },
): Promise<void> {
  const args: Array<[string, Json]> = [
    ['bucket', bucket],
    ['key', key],
  ]
  await callEndpoint(config, { endpoint: 'keyv.delete', token, args })
}

/** The most keys `countReachable` counts before it says "at least". */
export const MAX_COUNTED = 10_000

/**
 * How many keys of `bucket` under `prefixes` the token lists through `keyv.scan`, a page of
 * 1,000 at a time; past `MAX_COUNTED` it stops (`atLeast`).
 */
export async function countReachable(
  config: PlaygroundConfig,
  token: string,
  bucket: string,
  prefixes: readonly string[],
): Promise<{ count: number; atLeast: boolean }> {
  let count = 0
  for (const prefix of prefixes) {
    let cursor = ''
    do {
      const page = await scanKeys(config, token, { bucket, prefix, count: 1000, cursor })
      count += page.keys.length
      cursor = page.next
      if (count >= MAX_COUNTED) return { count, atLeast: true }
    } while (cursor)
  }
  return { count, atLeast: false }
}
