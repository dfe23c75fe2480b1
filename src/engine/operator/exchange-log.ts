import { toBase64Url, utf8 } from '../auth/bytes'
import type { Clock } from '../clock'
import { CallTracer, credentialTrace, outcomeOf, type RequestTrace } from '../trace'
import type { Presented } from '../auth/credentials'

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
  /** The answer's body, when the engine made the response of it: read then from no clone. */
  answered: string | Uint8Array | undefined
  credential: RequestTrace['credential'] = null

  constructor(
    readonly request: Request,
    readonly endpoint: string | null,
    private readonly clock: Clock,
  ) {
    this.startedAt = realNow(clock)
  }

  observe = (presented: Presented): void => {
    this.credential = credentialTrace(presented)
  }

  /**
   * The finished record, once the response is made (its body is `answered`, or read from a
   * clone).
   */
  async finish(response: Response, error?: unknown): Promise<Omit<ExchangeRecord, 'id'>> {
    const { request, tracer } = this
    const answered =
      typeof this.answered === 'string'
        ? utf8(this.answered)
        : (this.answered ?? new Uint8Array(await response.clone().arrayBuffer()))
    return {
      startedAt: this.startedAt,
      at: this.clock.now() / 1000,
      durationMs: Math.max(0, realNow(this.clock) - this.startedAt),
      request: {
        method: request.method,
        url: request.url,
        headers: [...request.headers],
        body: this.body && this.body.length > 0 ? logged(this.body, request.headers) : null,
      },
      response: {
        status: response.status,
        headers: [...response.headers],
        body: answered.length > 0 ? logged(answered, response.headers) : null,
      },
      trace: {
        endpoint: this.endpoint,
        credential: this.credential,
        calls: tracer.calls,
        droppedCalls: tracer.dropped,
        outcome: outcomeOf(response.status, error),
      },
    }
  }
}

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
    /** The newest id given so far (0: none). */
    get mark(): number {
      return nextId - 1
    },
    /** Removes every exchange after `id`; ids go on from where they were. */
    dropAfter(id: number): void {
      records = records.filter((record) => record.id <= id)
    },
  }
}

export type Journal = ReturnType<typeof createJournal>

const realNow = (clock: Clock) => clock.now() - clock.offset

function logged(bytes: Uint8Array, headers: Headers): LoggedBody {
  const kept = bytes.subarray(0, MAX_LOGGED_BODY_BYTES)
  const truncated = kept.length < bytes.length
  const binary = /msgpack/i.test(headers.get('content-type') ?? '')
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
