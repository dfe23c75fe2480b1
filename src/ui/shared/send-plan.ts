/**
 * A planned request sent through `fetch`, as any client in the page would, and what came back
 * with everything a client can see.
 */
import type { HttpPlan } from './call-plan'

/** What came back, with everything a client can see. */
export interface WireResult {
  status: number
  /** The reason phrase (service workers and many servers send none, so it is looked up). */
  statusText: string
  headers: Array<[string, string]>
  contentType: string
  bytes: Uint8Array
  /** Real milliseconds from send to the whole body read. */
  durationMs: number
  /** What finds this request's exchange in the log. */
  sent: SentRequest
}

/** A request the page sent, enough to find its exchange in the exchange log. */
export interface SentRequest {
  method: string
  url: string
  status: number
  /** Real time just before it was sent, in milliseconds since the Unix epoch. */
  sentAt: number
}

/** Sends a planned request through `fetch`, as any client in the page would. */
export async function sendPlan(plan: HttpPlan): Promise<WireResult> {
  const started = performance.now()
  const sentAt = Date.now()
  const response = await fetch(plan.url, {
    method: plan.method,
    headers: plan.headers,
    body:
      plan.body === null
        ? undefined
        : plan.body instanceof Uint8Array
          ? new Uint8Array(plan.body)
          : plan.body,
  })
  const bytes = new Uint8Array(await response.arrayBuffer())
  return {
    status: response.status,
    statusText: response.statusText || reasonPhrase(response.status),
    headers: [...response.headers],
    contentType: response.headers.get('content-type') ?? '',
    bytes,
    durationMs: performance.now() - started,
    sent: { method: plan.method, url: new URL(plan.url).href, status: response.status, sentAt },
  }
}

const REASONS: Record<number, string> = {
  200: 'OK',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
}

/** The standard reason phrase of an HTTP status. */
export const reasonPhrase = (status: number): string => REASONS[status] ?? ''
