import { toBase64Url, utf8 } from '../auth/bytes'
import type { Clock } from '../clock'
import { CallTracer, credentialTrace, outcomeOf, type RequestTrace } from '../trace'
import type { Presented } from '../auth/credentials'

/** Bytes of a body kept in the log; the rest is cut, and the body marked truncated. */
export const MAX_LOGGED_BODY_BYTES = 64 * 1024

/**
 * What one account's journal may hold, as the UTF-8 bytes of its exchanges' JSON: past it the
 * oldest go, whatever its capacity, so that an account's journal stays far inside what its
 * data may take (decision 071). The newest exchange is always kept.
 */
export const MAX_JOURNAL_BYTES = 4 * 1024 * 1024

/** The UTF-8 length of `text`, counted without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) continue
    if (code < 0x800) bytes += 1
    // A surrogate pair is 4 bytes for 2 code units; any other unit above U+07FF, 3 bytes.
    else if (code < 0xd800 || code > 0xdfff) bytes += 2
    else bytes += 1
  }
  return bytes
}

/** The bytes an exchange takes in the journal: its JSON, as UTF-8. */
export const exchangeBytes = (record: Omit<ExchangeRecord, 'id'>): number =>
  utf8Length(JSON.stringify(record))

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

/**
 * The last `capacity` exchanges, kept in this process, within `maxBytes` (the oldest go first);
 * ids from 1, for its life.
 */
export function createJournal(capacity: number, maxBytes = MAX_JOURNAL_BYTES) {
  let records: ExchangeRecord[] = []
  /** The bytes of each record, in the same order. */
  let sizes: number[] = []
  let bytes = 0
  let nextId = 1

  function keep(count: number): void {
    while (
      records.length > 0 &&
      (records.length > count || (bytes > maxBytes && records.length > 1))
    ) {
      records.shift()
      bytes -= sizes.shift()!
    }
  }
  return {
    /** How many exchanges it keeps; 0 keeps none. */
    get capacity() {
      return capacity
    },
    /** Keeps this many from now on (the newest, when it shrinks). */
    setCapacity(next: number): void {
      capacity = next
      keep(capacity)
    },
    add(record: Omit<ExchangeRecord, 'id'>): void {
      if (capacity === 0) return
      const size = exchangeBytes(record)
      records.push({ id: nextId++, ...record })
      sizes.push(size)
      bytes += size
      keep(capacity)
    },
    /** Newest first; only those after `after` when given. */
    list: (after = 0): ExchangeRecord[] => records.filter((record) => record.id > after).reverse(),
    clear(): void {
      records = []
      sizes = []
      bytes = 0
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
