import { utf8 } from '../bytes'
import type { Presented } from '../auth/credentials'
import type { Clock } from '../clock'
import {
  CallTracer,
  credentialTrace,
  outcomeOf,
  type CallTrace,
  type Counterfactual,
  type RequestTrace,
} from '../trace'
import { toBase64 } from '../wire/base64'
import type { Call } from '../wire/call'
import type { Reply } from '../wire/response'
import {
  MAX_LOGGED_BODY_BYTES,
  recordOf,
  type ExchangeRecord,
  type KeptExchange,
  type LoggedBody,
} from './exchange-record'

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

/** A body's first bytes, copied, with its whole size; none for no body. */
function keepBody(body: string | Uint8Array | undefined): KeptBody | undefined {
  if (body === undefined || body.length === 0) return undefined
  const bytes = typeof body === 'string' ? utf8(body) : body
  // A copy (not `slice`, which for a Node Buffer is a view): the bytes may be a view of a
  // larger buffer the request was read into.
  return { bytes: new Uint8Array(bytes.subarray(0, MAX_LOGGED_BODY_BYTES)), whole: bytes.length }
}

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

/** Real time now, in milliseconds, whatever the account's clock says. */
const realNow = (clock: Clock) => clock.real?.() ?? clock.now() - clock.offset

/** A kept body as the log writes it: text when it is UTF-8 text, base64 otherwise. */
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
