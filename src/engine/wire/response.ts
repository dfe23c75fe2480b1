import { ServiceError } from '../errors'
import type { Value } from '../lang/value'
import { formats, mediaType, type Format } from './formats'

/** Headers every response carries, so browsers may call `serve` across origins. */
export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'x-cursor, x-rate-limit, retry-after, x-fault, allow',
}

/** A successful result in the chosen format. */
export function resultResponse(
  value: Value,
  format: Format,
  serviceName: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(formats[format].write({ result: value }), {
    status: 200,
    headers: { ...CORS_HEADERS, ...headers, 'content-type': mediaType(format, serviceName) },
  })
}

/** The one place an error becomes a response. Anything not a `ServiceError` is a 500. */
export function errorResponse(error: unknown, format: Format, serviceName: string): Response {
  const known = error instanceof ServiceError ? error : undefined
  if (!known) console.error('engine fault:', error)
  const status = known?.status ?? 500
  const message = known?.message ?? 'internal error'
  return new Response(formats[format].write({ error: message }), {
    status,
    headers: { ...CORS_HEADERS, ...known?.headers, 'content-type': mediaType(format, serviceName) },
  })
}
