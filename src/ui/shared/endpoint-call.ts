import type { Json } from '../../engine'
import type { PlaygroundConfig } from '../config'
import { planCall, readBody, sendPlan, type CallDraft } from './wire'

/** A refused call: the HTTP status and the engine's own message. */
export class EndpointError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    message: string,
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

/**
 * Calls an endpoint as a client does, in the tuple format (`application/vnd.<service>+json`),
 * and reads its answer: the `<<` value, or an `EndpointError` with the `!!` message. Values the
 * caller wants kept as data must be wrapped in `literal`.
 */
export async function callEndpoint(
  { baseUrl, serviceName }: PlaygroundConfig,
  draft: Pick<CallDraft, 'endpoint' | 'token' | 'input' | 'args'>,
): Promise<EndpointAnswer> {
  const plan = planCall(baseUrl, serviceName, { ...draft, format: 'tuples', accept: '' })
  const result = await sendPlan(plan)
  const body = readBody(result.bytes, result.contentType)
  const headers = new Headers(result.headers)
  const tuple = Array.isArray(body.value) ? (body.value[0] as unknown) : undefined
  if (result.status === 200 && Array.isArray(tuple) && tuple[0] === '<<') {
    return { value: tuple[1] as Json, headers }
  }
  throw new EndpointError(result.status, result.statusText, errorMessage(body, result.status))
}

/** The engine's message, in whichever family it answered (tuples, JSON or text). */
function errorMessage(body: ReturnType<typeof readBody>, status: number): string {
  const value = body.value as unknown
  const tuple = Array.isArray(value) ? (value[0] as unknown) : undefined
  const fromTuple = Array.isArray(tuple) && tuple[0] === '!!' ? messageIn(tuple[1]) : undefined
  const fromJson = isRecord(value) ? messageIn(value.error) : undefined
  return fromTuple ?? fromJson ?? (body.raw.trim() || `the call failed with status ${status}`)
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function messageIn(value: unknown): string | undefined {
  return isRecord(value) && typeof value.message === 'string' ? value.message : undefined
}

/** An error as a person reads it: `401 Unauthorized: authorization is expired`. */
export function describeError(error: unknown): string {
  if (error instanceof EndpointError) {
    return `${error.status}${error.statusText ? ` ${error.statusText}` : ''}: ${error.message}`
  }
  return error instanceof Error ? error.message : String(error)
}
