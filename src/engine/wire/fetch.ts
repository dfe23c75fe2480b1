import { realTime } from '../real-time'
import { readBody } from './body'
import type { Call } from './call'
import type { Reply } from './response'

/**
 * The engine's door in Fetch's shapes, for msw in the page and in Node: a `Request` read as a
 * `Call`, and a `Reply` made a `Response` doing what its fault says.
 */

/** A Fetch `Request` as a `Call`: its URL read once. */
export function callOf(request: Request): Call {
  const { origin, pathname, search } = new URL(request.url)
  return {
    method: request.method,
    origin,
    pathname,
    search,
    header: (name) => request.headers.get(name),
    headers: () => request.headers,
    body: (limit) => readBody(request, limit),
    signal: request.signal,
  }
}

/** Statuses whose answer has no body, which a `Response` refuses to be given one. */
const NULL_BODY = new Set([101, 103, 204, 205, 304])

/**
 * A reply as a `Response`. A fault waits first (until `signal` aborts), then drops the answer
 * (a network error) or lets its body break off after what it holds.
 */
export async function responseOf(reply: Reply, signal?: AbortSignal): Promise<Response> {
  const { status, headers, body, fault } = reply
  if (fault) {
    await waitReal(fault.delayMs, signal)
    if (fault.ending === 'drop') return Response.error()
    if (fault.ending === 'break') return new Response(breaking(body), { status, headers })
  }
  return new Response(NULL_BODY.has(status) ? null : body, { status, headers })
}

/** `body`, then an error: a connection reset before the body's end. */
function breaking(body: string | Uint8Array): ReadableStream<Uint8Array> {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (bytes.length > 0) controller.enqueue(bytes)
    },
    pull(controller) {
      controller.error(new TypeError('the connection was reset (a fault injected)'))
    },
  })
}

/**
 * Waits `ms` of real time (whatever the engine's clock, and whatever timers a test faked), or
 * until `signal` aborts.
 */
export function waitReal(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve()
    const done = () => {
      realTime.clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = realTime.setTimeout(done, ms)
    signal?.addEventListener('abort', done, { once: true })
  })
}
