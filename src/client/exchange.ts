import { decode } from '@msgpack/msgpack'
import type { ExchangeRecord } from '../engine'
import { bearerToken } from '../engine/auth/bearer'
import { loggedBytes } from '../engine/operator/exchange-log'
import { formatOfMediaType, mediaTypeOf, type Format } from '../engine/wire/formats'

/**
 * The one reader of a logged exchange (the journal's, the page's exchange log's, a contract
 * recorder's): its headers, its bodies' bytes, its bearer token, and what its request carried,
 * read as the engine reads a call. Browser-safe.
 */

export { loggedBytes } from '../engine/operator/exchange-log'
export { isAuthorizationToken, mintedAuthorization } from '../engine/auth/minted'
export { mintedToken } from '../engine/operator/minted-token'

/** A header's value (the first of that name), whatever the case of its name. */
export function headerOf(headers: Array<[string, string]>, name: string): string | undefined {
  const wanted = name.toLowerCase()
  return headers.find(([key]) => key.toLowerCase() === wanted)?.[1]
}

/** The bearer token a request sent, when its `authorization` header held one. */
export const tokenOf = (record: ExchangeRecord): string | undefined =>
  bearerToken(headerOf(record.request.headers, 'authorization'))

/** An input and named arguments, as plain values. */
export interface SentCall {
  input?: unknown
  args: Record<string, unknown>
}

/**
 * Top-level tuples as the input and arguments they are, when that is all they are (`>>` once,
 * `$$` once a name): what the engine reads as a call body. `undefined` for anything else.
 */
export function readTuples(value: unknown): SentCall | undefined {
  if (!Array.isArray(value)) return undefined
  let input: { value: unknown } | undefined
  const args: Record<string, unknown> = {}
  for (const tuple of value) {
    if (!Array.isArray(tuple)) return undefined
    if (tuple[0] === '>>' && tuple.length === 2 && !input) input = { value: tuple[1] }
    else if (
      tuple[0] === '$$' &&
      tuple.length === 3 &&
      typeof tuple[1] === 'string' &&
      !Object.hasOwn(args, tuple[1])
    ) {
      args[tuple[1]] = tuple[2]
    } else return undefined
  }
  return { ...(input ? { input: input.value } : {}), args }
}

/** What a logged request's body was: one of the wire formats, none, or another content type. */
export type SentFormat = Format | 'none' | 'other'

/**
 * How a logged request's body was sent and what it carried: its format by its content type
 * (no content type is text; any service's name, unless `serviceName` is given), and its input
 * and arguments from the body when the body reads as a call (`undefined` when it does not: cut
 * short by the journal, not the format it says, tuples with more than `>>` and `$$`).
 */
export function readSent(
  record: ExchangeRecord,
  serviceName?: string,
): { format: SentFormat; call: SentCall | undefined } {
  const { body, headers } = record.request
  if (!body) return { format: 'none', call: { args: {} } }
  const contentType = headerOf(headers, 'content-type')
  const format =
    mediaTypeOf(contentType) === undefined ? 'text' : formatOfMediaType(contentType, serviceName)
  if (format === undefined) return { format: 'other', call: undefined }
  if (body.truncated) return { format, call: undefined }
  const text = body.encoding === 'text' ? body.data : undefined
  try {
    switch (format) {
      case 'text':
        return { format, call: text === undefined ? undefined : { input: text, args: {} } }
      case 'json':
        return {
          format,
          call: text === undefined ? undefined : { input: JSON.parse(text), args: {} },
        }
      case 'tuples':
        return { format, call: text === undefined ? undefined : readTuples(JSON.parse(text)) }
      case 'msgpack':
        return { format, call: readTuples(decode(loggedBytes(body))) }
    }
  } catch {
    // A body that does not parse as its format carried no call.
  }
  return { format, call: undefined }
}
