import { InvalidError } from '../errors'
import type { Args, CallRequest } from '../lang/tree'
import { textLiteral } from '../lang/tree'
import { formats, type Format } from './formats'

/**
 * A call's input and arguments from its body (read as `format`) and query string. Query
 * values are text; the endpoint's declared types coerce them.
 */
export function parseCall(body: Uint8Array, format: Format, query: URLSearchParams): CallRequest {
  const call = formats[format].read(body)
  mergeQuery(call.args, query)
  return call
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
