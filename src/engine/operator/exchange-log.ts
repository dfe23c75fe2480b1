import { toBase64Url, utf8 } from '../auth/bytes'
import type { Clock } from '../clock'
import { CallTracer, credentialTrace, outcomeOf, type RequestTrace } from '../trace'
import type { Presented } from '../auth/credentials'
import { urlOf, type Call } from '../wire/call'
import type { Reply } from '../wire/response'

/** Bytes of a body kept in the log; the rest is cut, and the body marked truncated. */
export const MAX_LOGGED_BODY_BYTES = 64 * 1024

/** A body as the log keeps it: text when it is UTF-8 text, base64 otherwise (MessagePack). */
export interface LoggedBody {
  encoding: 'text' | 'base64'
  data: string
  /** The body's whole size in bytes, before any cut. */
  bytes: number
  truncated: boolean
}

/** One request the engine answered, with its answer and everything the engine decided. */
export interface ExchangeRecord {
  /** Increases by one per request, from 1, for the engine's life. */
  id: number
  /** Real time the request arrived, in milliseconds since the Unix epoch. */
  startedAt: number
  /** Virtual time it was answered at, in Unix seconds. */
  at: number
  /** Real milliseconds from arrival to answer. */
  durationMs: number
  request: {
    method: string
    url: string
    headers: Array<[string, string]>
    body: LoggedBody | null
  }
  response: { status: number; headers: Array<[string, string]>; body: LoggedBody | null }
  trace: RequestTrace
}

/** What the engine gathers while it answers one request, when the log is on. */
export class ExchangeDraft {
  readonly tracer = new CallTracer()
  readonly startedAt: number
  body: Uint8Array | undefined
  credential: RequestTrace['credential'] = null

  constructor(
    readonly call: Call,
    readonly endpoint: string | null,
    private readonly clock: Clock,
  ) {
    this.startedAt = realNow(clock)
  }

  observe = (presented: Presented): void => {
    this.credential = credentialTrace(presented)
  }

  /** The finished record of the request and its reply, as the client met it (or did not). */
  finish(reply: Reply, error?: unknown): Omit<ExchangeRecord, 'id'> {
    const { call, tracer } = this
    const requestHeaders = call.headers()
    const responseHeaders = Object.entries(reply.headers).sort(byName)
    const answered = typeof reply.body === 'string' ? utf8(reply.body) : reply.body
    return {
      startedAt: this.startedAt,
      at: this.clock.now() / 1000,
      durationMs: Math.max(0, realNow(this.clock) - this.startedAt),
      request: {
        method: call.method,
        url: urlOf(call),
        headers: requestHeaders,
        body: this.body && this.body.length > 0 ? logged(this.body, requestHeaders) : null,
      },
      response: {
        status: reply.status,
        headers: responseHeaders,
        body: answered.length > 0 ? logged(answered, responseHeaders) : null,
      },
      trace: {
        endpoint: this.endpoint,
        credential: this.credential,
        calls: tracer.calls,
        droppedCalls: tracer.dropped,
        outcome: outcomeOf(reply.status, error),
      },
    }
  }
}

const byName = ([a]: [string, string], [b]: [string, string]) => (a < b ? -1 : a > b ? 1 : 0)

/** The last `capacity` exchanges, kept in this process; ids from 1, for its life. */
export function createJournal(capacity: number) {
  let records: ExchangeRecord[] = []
  let nextId = 1
  return {
    /** How many exchanges it keeps; 0 keeps none. */
    get capacity() {
      return capacity
    },
    /** Keeps this many from now on (the newest, when it shrinks). */
    setCapacity(next: number): void {
      capacity = next
      if (records.length > capacity) records = records.slice(records.length - capacity)
    },
    add(record: Omit<ExchangeRecord, 'id'>): void {
      if (capacity === 0) return
      records.push({ id: nextId++, ...record })
      if (records.length > capacity) records = records.slice(records.length - capacity)
    },
    /** Newest first; only those after `after` when given. */
    list: (after = 0): ExchangeRecord[] => records.filter((record) => record.id > after).reverse(),
    clear(): void {
      records = []
    },
  }
}

export type Journal = ReturnType<typeof createJournal>

const realNow = (clock: Clock) => clock.now() - clock.offset

function logged(bytes: Uint8Array, headers: Array<[string, string]>): LoggedBody {
  const kept = bytes.subarray(0, MAX_LOGGED_BODY_BYTES)
  const truncated = kept.length < bytes.length
  const type = headers.find(([name]) => name === 'content-type')?.[1]
  const binary = /msgpack/i.test(type ?? '')
  if (!binary) {
    try {
      // A cut may split a character: `stream` leaves its last bytes out instead of failing.
      const data = new TextDecoder('utf-8', { fatal: true }).decode(kept, { stream: truncated })
      return { encoding: 'text', data, bytes: bytes.length, truncated }
    } catch {
      // Not UTF-8 text: kept as bytes.
    }
  }
  return { encoding: 'base64', data: base64(kept), bytes: bytes.length, truncated }
}

function base64(bytes: Uint8Array): string {
  const text = toBase64Url(bytes).replaceAll('-', '+').replaceAll('_', '/')
  return text + '='.repeat((4 - (text.length % 4)) % 4)
}
