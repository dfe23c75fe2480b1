import { ServiceError } from '../errors'
import type { Value } from '../lang/value'
import { formats, mediaType, type Format } from './formats'

/** Headers every response carries, so browsers may call `serve` across origins. */
export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'x-cursor, x-rate-limit, retry-after, x-fault, allow',
}

/** An answer as plain data: what `toResponse` makes a Response of, or a server writes as is. */
export interface Reply {
  status: number
  headers: Record<string, string>
  body: string | Uint8Array<ArrayBuffer>
}

/** A successful result in the chosen format. */
export function resultReply(
  value: Value,
  format: Format,
  serviceName: string,
  headers?: Record<string, string>,
): Reply {
  const all: Record<string, string> = { ...CORS_HEADERS }
  if (headers) Object.assign(all, headers)
  all['content-type'] = mediaType(format, serviceName)
  return { status: 200, headers: all, body: formats[format].write({ result: value }) }
}

/** The one place an error becomes an answer. Anything not a `ServiceError` is a 500. */
export function errorReply(error: unknown, format: Format, serviceName: string): Reply {
  const known = error instanceof ServiceError ? error : undefined
  if (!known) console.error('engine fault:', error)
  const status = known?.status ?? 500
  const message = known?.message ?? 'internal error'
  return {
    status,
    headers: { ...CORS_HEADERS, ...known?.headers, 'content-type': mediaType(format, serviceName) },
    body: formats[format].write({ error: message }),
  }
}

export const toResponse = ({ status, headers, body }: Reply): Response =>
  new Response(body, { status, headers })

/** A successful result in the chosen format, as a Response. */
export const resultResponse = (
  value: Value,
  format: Format,
  serviceName: string,
  headers: Record<string, string> = {},
): Response => toResponse(resultReply(value, format, serviceName, headers))

/** An error as a Response: see `errorReply`. */
export const errorResponse = (error: unknown, format: Format, serviceName: string): Response =>
  toResponse(errorReply(error, format, serviceName))
