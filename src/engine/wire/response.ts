import { ServiceError } from '../errors'
import type { Value } from '../lang/value'
import { formats, mediaType, type Format } from './formats'

const EXPOSED = 'x-cursor, x-rate-limit, retry-after, x-fault, allow'

/** Headers every answer to an endpoint call carries, so browsers may call `serve` across origins. */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED,
}

/**
 * An answer as plain data: what the engine's one entry returns on every path. An adapter
 * writes it as it is (the HTTP server) or makes a Fetch `Response` of it (`responseOf`), and
 * does what its `fault` says.
 */
export interface Reply {
  status: number
  headers: Record<string, string>
  body: string | Uint8Array<ArrayBuffer>
  /** A fault the operator set up that this request met: how the answer reaches the client. */
  fault?: ReplyFault
}

/**
 * What a client's error handling meets:
 * - `status`: an error answer (429 with `retry-after`, 408, 500, 502, 503 or 504);
 * - `delay`: the real answer, late;
 * - `network`: no answer at all (a refused or dropped connection);
 * - `reset`: the real answer's status and headers, then the connection drops mid-body;
 * - `truncate`: the real answer cut in half (a malformed body that ends early);
 * - `hang`: nothing until the client gives up (or `delayMs` pass), then the connection drops;
 * - `respond`: the answer given (`answer`) in place of the endpoint's, as msw's `server.use`
 *   gives one: not a failure, but scoped, counted and cleared as faults are.
 */
export type FaultKind = 'status' | 'delay' | 'network' | 'reset' | 'truncate' | 'hang' | 'respond'

/**
 * How a fault changes the way an answer reaches the client, as plain data each adapter acts
 * on: wait `delayMs` of real time (less when the client goes away first), then end as `ending`
 * says. The reply's `x-fault` header names the kind too.
 */
export interface ReplyFault {
  kind: FaultKind
  delayMs: number
  /**
   * `answer`: the reply as it is. `drop`: no answer, the connection closes (its status is 0).
   * `break`: the status, the headers and `body` (the answer's first half), then the connection
   * closes, the body never ending.
   */
  ending: 'answer' | 'drop' | 'break'
}

/** A successful result in the chosen format. */
export function resultReply(
  value: Value,
  format: Format,
  serviceName: string,
  headers?: Record<string, string>,
): Reply {
  // Written out, not spread from CORS_HEADERS: every answer makes one.
  const all: Record<string, string> = {
    'access-control-allow-origin': '*',
    'access-control-expose-headers': EXPOSED,
  }
  if (headers) Object.assign(all, headers)
  all['content-type'] = mediaType(format, serviceName)
  return { status: 200, headers: all, body: formats[format].write({ result: value }) }
}

/**
 * The one place an error becomes an answer: its status, its headers and its message in the
 * chosen format (`{"error":{"message":…}}` in JSON). Anything not a `ServiceError` is a 500.
 * `cors: false` for answers no other origin may read (the control plane, the server's own).
 */
export function errorReply(
  error: unknown,
  format: Format,
  serviceName: string,
  { cors = true }: { cors?: boolean } = {},
): Reply {
  const known = error instanceof ServiceError ? error : undefined
  if (!known) console.error('engine fault:', error)
  const status = known?.status ?? 500
  const message = known?.message ?? 'internal error'
  return {
    status,
    headers: {
      ...(cors ? CORS_HEADERS : {}),
      ...known?.headers,
      'content-type': mediaType(format, serviceName),
    },
    body: formats[format].write({ error: message }),
  }
}

/** A refusal in the engine's JSON error format, for no other origin to read. */
export const refusal = (status: number, message: string, headers: Record<string, string> = {}) =>
  errorReply(new ServiceError(status, 'refused', message, headers), 'json', '', { cors: false })

/** A JSON value as an answer for no other origin to read (the control plane, the server's own). */
export const jsonReply = (status: number, value: Value): Reply => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: formats.json.write({ result: value }),
})
