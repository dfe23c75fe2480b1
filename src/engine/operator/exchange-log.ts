import { utf8 } from '../bytes'
import { fromBase64, toBase64 } from '../wire/base64'
import type { Clock } from '../clock'
import {
  CallTracer,
  credentialTrace,
  outcomeOf,
  type CallTrace,
  type Counterfactual,
  type RequestTrace,
} from '../trace'
import type { Presented } from '../auth/credentials'
import type { Call } from '../wire/call'
import type { Reply } from '../wire/response'

/** Bytes of a body kept in the log; the rest is cut, and the body marked truncated. */
export const MAX_LOGGED_BODY_BYTES = 64 * 1024

/**
 * What one account's journal may hold, in bytes of what it keeps of its exchanges (their
 * bodies as kept, each cut at `MAX_LOGGED_BODY_BYTES`, headers and trace; over PostgreSQL, their
 * records' JSON): past it the oldest go, whatever its capacity, so that an account's journal
 * stays far inside what its data may take (decision 071). The newest exchange is always kept.
 */
export const MAX_JOURNAL_BYTES = 4 * 1024 * 1024

/**
 * What the journal holds in memory beside the characters and bytes it keeps, measured on V8
 * (decision 017): an exchange's own objects (the kept exchange, its headers' map, its outcome,
 * what its token was), each header's entry, each body's buffer and view, each traced call with
 * its sentence, each counterfactual, and the bucket and key a key-value call touched.
 */
const EXCHANGE_BYTES = 1024
const HEADER_BYTES = 64
const BODY_BYTES = 256
const TRACED_CALL_BYTES = 384
const COUNTERFACTUAL_BYTES = 512
const TARGET_BYTES = 96

/** A body as kept: its first `MAX_LOGGED_BODY_BYTES`, and its whole size. */
interface KeptBody {
  bytes: Uint8Array
  whole: number
}

function keepBody(body: string | Uint8Array | undefined): KeptBody | undefined {
  if (body === undefined || body.length === 0) return undefined
  const bytes = typeof body === 'string' ? utf8(body) : body
  // A copy (not `slice`, which for a Node Buffer is a view): the bytes may be a view of a
  // larger buffer the request was read into.
  return { bytes: new Uint8Array(bytes.subarray(0, MAX_LOGGED_BODY_BYTES)), whole: bytes.length }
}

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

/**
 * A record to keep, or what a request left to make it from when it is first read (see
 * `ExchangeDraft`).
 */
export type KeptExchange = Omit<ExchangeRecord, 'id'> | { record(): Omit<ExchangeRecord, 'id'> }

/** The record itself, made now if it was kept to be made later. */
export const recordOf = (kept: KeptExchange): Omit<ExchangeRecord, 'id'> =>
  'record' in kept ? kept.record() : kept

/**
 * What the engine gathers while it answers one request, when the journal is on. The record is
 * made from it when the journal is read, not while the client waits: the request keeps only
 * what it already had (its headers, body and answer, what its token turned out to be, the calls
 * traced), and the times.
 */
export class ExchangeDraft {
  readonly tracer = new CallTracer()
  readonly startedAt: number
  body: Uint8Array | undefined
  presented: Presented | undefined
  /** A refused token's counterfactual, checked against the call (decision 087), when it was. */
  tokenCounterfactual: Counterfactual | undefined

  constructor(
    readonly call: Call,
    readonly endpoint: string | null,
    readonly clock: Clock,
  ) {
    this.startedAt = realNow(clock)
  }

  observe(presented: Presented): void {
    this.presented = presented
  }

  /** The request and its reply, as the client met it (or did not), to be made a record. */
  finish(reply: Reply, error?: unknown): KeptExchange {
    const { call, clock, startedAt } = this
    // Only what the record needs is kept, as plain data: never the call itself, which holds the
    // connection, nor the error, whose stack may hold what the request was evaluating.
    return new Finished(
      call.method,
      call.origin,
      call.pathname,
      call.search,
      call.headers(),
      keepBody(this.body),
      reply.status,
      // A copy: an adapter may add its own headers (a length) to the reply as it writes it.
      { ...reply.headers },
      keepBody(reply.body),
      startedAt,
      clock.now() / 1000,
      Math.max(0, realNow(clock) - startedAt),
      this.endpoint,
      this.presented,
      this.tracer.calls,
      this.tracer.dropped,
      outcomeOf(reply.status, error),
      this.tokenCounterfactual,
    )
  }
}

/**
 * A request answered, kept as the request left it (one object, few beside it: the journal
 * keeps many), and made a record each time it is read: the record, its bodies decoded, is not
 * kept beside the bytes it is made from.
 */
class Finished {
  constructor(
    private readonly method: string,
    private readonly origin: string,
    private readonly pathname: string,
    private readonly search: string,
    private readonly requestHeaders: Iterable<[string, string]>,
    private readonly sent: KeptBody | undefined,
    private readonly status: number,
    private readonly responseHeaders: Record<string, string>,
    private readonly answered: KeptBody | undefined,
    private readonly startedAt: number,
    private readonly at: number,
    private readonly durationMs: number,
    private readonly endpoint: string | null,
    private readonly presented: Presented | undefined,
    private readonly calls: CallTrace[],
    private readonly droppedCalls: number,
    /** How it ended, without the refused credential's counterfactual (known once it is read). */
    private readonly outcome: RequestTrace['outcome'],
    /** A dead token's counterfactual, checked against the call (decision 087). */
    private readonly tokenCounterfactual: Counterfactual | undefined,
  ) {}

  /** What it holds in memory, about: bodies as kept, headers, URL, trace, and their objects. */
  size(): number {
    let size = EXCHANGE_BYTES + this.origin.length + this.pathname.length + this.search.length
    for (const [name, value] of this.requestHeaders)
      size += HEADER_BYTES + name.length + value.length
    for (const name in this.responseHeaders)
      size += HEADER_BYTES + name.length + this.responseHeaders[name]!.length
    for (const body of [this.sent, this.answered]) if (body) size += BODY_BYTES + body.bytes.length
    for (const call of this.calls) {
      size += TRACED_CALL_BYTES + (call.counterfactual ? COUNTERFACTUAL_BYTES : 0)
      if (call.target) size += TARGET_BYTES + call.target.bucket.length + call.target.key.length
    }
    if (this.tokenCounterfactual) size += COUNTERFACTUAL_BYTES
    return size + (this.outcome.counterfactual ? COUNTERFACTUAL_BYTES : 0)
  }

  record(): Omit<ExchangeRecord, 'id'> {
    const { sent, status, answered, presented, outcome } = this
    const credential = presented ? credentialTrace(presented, this.tokenCounterfactual) : null
    const requestHeaders = [...this.requestHeaders].sort(byName)
    const responseHeaders = Object.entries(this.responseHeaders).sort(byName)
    return {
      startedAt: this.startedAt,
      at: this.at,
      durationMs: this.durationMs,
      request: {
        method: this.method,
        url: `${this.origin}${this.pathname}${this.search}`,
        headers: requestHeaders,
        body: sent ? logged(sent, requestHeaders) : null,
      },
      response: {
        status,
        headers: responseHeaders,
        body: answered ? logged(answered, responseHeaders) : null,
      },
      trace: {
        endpoint: this.endpoint,
        credential,
        calls: this.calls,
        droppedCalls: this.droppedCalls,
        // A refused token's counterfactual is the one an error answers with (as `outcomeOf`).
        outcome:
          outcome.counterfactual && credential?.decision === 'refused' && credential.counterfactual
            ? { ...outcome, counterfactual: credential.counterfactual }
            : outcome,
      },
    }
  }
}

const byName = ([a]: [string, string], [b]: [string, string]) => (a < b ? -1 : a > b ? 1 : 0)

/** What an exchange takes in the journal: a finished request's own measure, or its JSON's. */
export function exchangeSize(kept: KeptExchange): number {
  if (kept instanceof Finished) return kept.size()
  return JSON.stringify(recordOf(kept)).length
}

/**
 * The last `capacity` exchanges, kept in this process, within `maxBytes` as `exchangeSize`
 * measures them (the oldest go first; the newest is always kept); ids from 1, for its life.
 */
export function createJournal(capacity: number, maxBytes = MAX_JOURNAL_BYTES) {
  /**
   * The kept exchanges, oldest first, from `first` on. A slot before `first` was let go and
   * holds nothing (so what it held is freed at once); the empty slots are cut off in batches.
   */
  let kept: Array<JournalEntry | undefined> = []
  const cutListeners: Array<(after: number) => void> = []
  const cut = (after: number) => cutListeners.forEach((listener) => listener(after))
  let first = 0
  let bytes = 0
  let nextId = 1
  const drop = () => {
    bytes -= kept[first]!.size
    kept[first] = undefined
    first++
  }
  /** Lets go of the oldest past the budget at once, and past the count in batches. */
  const trim = (count: number) => {
    while (kept.length - first > 1 && bytes > maxBytes) drop()
    while (kept.length - first > count) drop()
    if (first > 0) {
      kept = kept.slice(first)
      first = 0
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
      trim(capacity)
    },
    /** Keeps an exchange with the next id; answers its entry (none while the journal is off). */
    add(exchange: KeptExchange): JournalEntry | undefined {
      if (capacity === 0) return undefined
      const size = exchangeSize(exchange)
      const entry = { id: nextId++, exchange, size }
      kept.push(entry)
      bytes += size
      while (kept.length - first > 1 && bytes > maxBytes) drop()
      if (kept.length - first >= 2 * capacity + 64 || first >= 1024) trim(capacity)
      return entry
    },
    /** The entry added last, while it is kept. */
    last: (): JournalEntry | undefined => kept.at(-1),
    /** The entries kept, oldest first: what a branch of the account's history keeps of it. */
    entries(): JournalEntry[] {
      trim(capacity)
      // Trimmed, every slot holds an entry.
      return [...kept] as JournalEntry[]
    },
    /**
     * Holds `entries` (oldest first, ids below the next one) in place of what it held, within
     * its capacity and budget: the journal of another branch of the account's history.
     */
    replaceEntries(entries: readonly JournalEntry[]): void {
      kept = [...entries]
      first = 0
      bytes = entries.reduce((total, entry) => total + entry.size, 0)
      trim(capacity)
    },
    /**
     * Told whenever exchanges other than the oldest are taken out: every one after `after` (0
     * for a clear, the checkpoint's mark for a restore).
     */
    onCut(listener: (after: number) => void): void {
      cutListeners.push(listener)
    },
    /** Newest first; only those after `after` when given. */
    list(after = 0): ExchangeRecord[] {
      trim(capacity)
      const records: ExchangeRecord[] = []
      for (let i = kept.length - 1; i >= 0 && kept[i]!.id > after; i--) {
        const { id, exchange } = kept[i]!
        records.push({ id, ...recordOf(exchange) })
      }
      return records
    },
    clear(): void {
      kept = []
      first = 0
      bytes = 0
      cut(0)
    },
    /** The newest id given so far (0: none). */
    get mark(): number {
      return nextId - 1
    },
    /** Removes every exchange after `id`; ids go on from where they were. */
    dropAfter(id: number): void {
      trim(capacity)
      if (kept.at(-1) && kept.at(-1)!.id <= id) return
      kept = kept.filter((entry) => entry!.id <= id)
      bytes = kept.reduce((sum, entry) => sum + entry!.size, 0)
      cut(id)
    },
    /** What it holds: how many exchanges, and their bytes as `exchangeSize` measures them. */
    get held(): { exchanges: number; bytes: number } {
      return { exchanges: kept.length - first, bytes }
    },
  }
}

export type Journal = ReturnType<typeof createJournal>

/** One exchange as a journal keeps it: its id, what it kept, and what that takes. */
export interface JournalEntry {
  readonly id: number
  readonly exchange: KeptExchange
  readonly size: number
}

const realNow = (clock: Clock) => clock.real?.() ?? clock.now() - clock.offset

function logged({ bytes: kept, whole }: KeptBody, headers: Array<[string, string]>): LoggedBody {
  const truncated = kept.length < whole
  const type = headers.find(([name]) => name === 'content-type')?.[1]
  const binary = /msgpack/i.test(type ?? '')
  if (!binary) {
    try {
      // A cut may split a character: `stream` leaves its last bytes out instead of failing.
      const data = new TextDecoder('utf-8', { fatal: true }).decode(kept, { stream: truncated })
      return { encoding: 'text', data, bytes: whole, truncated }
    } catch {
      // Not UTF-8 text: kept as bytes.
    }
  }
  return { encoding: 'base64', data: toBase64(kept), bytes: whole, truncated }
}

/**
 * A logged body's bytes, for every reader of a log: its text as UTF-8, or its base64 decoded;
 * none for no body, or for base64 that is not (a journal read from a file may hold anything).
 */
export function loggedBytes(body: LoggedBody | null): Uint8Array<ArrayBuffer> {
  if (!body) return new Uint8Array()
  if (body.encoding === 'text') return utf8(body.data)
  try {
    return fromBase64(body.data)
  } catch {
    return new Uint8Array()
  }
}
