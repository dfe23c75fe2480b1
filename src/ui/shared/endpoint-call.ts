import type { Json } from '../../engine'
import type { PlaygroundConfig } from './config'
import { planCall, readBody, saidIn, sendPlan, type CallDraft, type SentRequest } from './wire'

/**
 * A refused call: the HTTP status and the engine's own message, and what finds the call in the
 * exchange log, whose trace says why (`ErrorReason`).
 */
export class EndpointError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    message: string,
    readonly sent?: SentRequest,
  ) {
    super(message)
    this.name = 'EndpointError'
  }
}

/** A successful call's value and response headers (`x-cursor`, `x-rate-limit`). */
export interface EndpointAnswer {
  value: Json
  headers: Headers
}

/** Data in a tuple body: a `%%` literal, never read as a call or a reference. */
export const literal = (value: Json): Json => ['%%', value]

/** The body formats a call can be sent in: the tuple formats, or JSON and text (input only). */
export type CallFormat = 'tuples' | 'msgpack' | 'json' | 'text'

/**
 * Calls an endpoint as a client does, in the tuple format (`application/vnd.<service>+json`)
 * unless `format` says otherwise, and reads its answer: the value, or an `EndpointError` with the
 * engine's message. In the tuple formats values the caller wants kept as data must be wrapped
 * in `literal`; in JSON and text the input is the body and the arguments go in the query string,
 * and the answer is asked for as JSON, so that its value reads back exactly.
 */
export async function callEndpoint(
  { baseUrl, serviceName }: PlaygroundConfig,
  draft: Pick<CallDraft, 'endpoint' | 'token' | 'input' | 'args'>,
  format: CallFormat = 'tuples',
): Promise<EndpointAnswer> {
  const inTuples = format === 'tuples' || format === 'msgpack'
  const accept = inTuples ? '' : 'application/json'
  const plan = planCall(baseUrl, serviceName, { ...draft, format, accept })
  const result = await sendPlan(plan)
  const body = readBody(result.bytes, result.contentType)
  const headers = new Headers(result.headers)
  const said = saidIn(body.value, result.contentType, result.status !== 200)
  if (result.status === 200 && 'value' in said) return { value: said.value as Json, headers }
  if (result.status === 200 && !inTuples && 'value' in body) {
    return { value: body.value as Json, headers }
  }
  const message = said.error ?? (body.raw.trim() || `the call failed with status ${result.status}`)
  throw new EndpointError(result.status, result.statusText, message, result.sent)
}

/** An error as a person reads it: `401 Unauthorized: authorization is expired`. */
export function describeError(error: unknown): string {
  if (error instanceof EndpointError) {
    return `${error.status}${error.statusText ? ` ${error.statusText}` : ''}: ${error.message}`
  }
  return error instanceof Error ? error.message : String(error)
}
