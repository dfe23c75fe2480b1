import { InvalidError } from '../errors'
import type { Args, CallRequest } from '../lang/tree'
import { literal, textLiteral } from '../lang/tree'
import type { Json } from '../store'
import { decodeText, parseJson } from './body'
import type { Format } from './formats'
import { assertJsonDepth } from '../lang/depth'
import { decodeMsgpack } from './msgpack'
import { parseTupleBody } from '../lang/parser'

/**
 * A call's input and arguments from its body (read as `format`) and query string. Query
 * values are text; the endpoint's declared types coerce them.
 */
export function parseCall(body: Uint8Array, format: Format, query: URLSearchParams): CallRequest {
  const call = parseBody(body, format)
  mergeQuery(call.args, query)
  return call
}

function parseBody(body: Uint8Array, format: Format): CallRequest {
  if (format === 'msgpack')
    return body.length === 0 ? { args: new Map() } : parseTupleBody(decodeMsgpack(body))
  const text = decodeText(body)
  if (format === 'text')
    return text === '' ? { args: new Map() } : { input: textLiteral(text), args: new Map() }
  if (text.trim() === '') return { args: new Map() }
  const value = parseJson(text)
  assertJsonDepth(value)
  if (format === 'json') return { input: literal(value as Json), args: new Map() }
  return parseTupleBody(value)
}

function mergeQuery(args: Args, query: URLSearchParams): void {
  for (const name of new Set(query.keys())) {
    const values = query.getAll(name)
    if (name === '') throw new InvalidError('the query string has an argument with no name')
    if (values.length > 1) {
      throw new InvalidError(`argument \`${name}' is given more than once in the query string`)
    }
    if (args.has(name)) {
      throw new InvalidError(
        `argument \`${name}' is given both in the query string and in the body`,
      )
    }
    args.set(name, textLiteral(values[0]!))
  }
}
