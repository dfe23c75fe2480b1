// An exchange as the journal gives it out: the request, its answer with their bodies as logged,
// and everything the engine decided.

import { utf8 } from '../bytes'
import type { RequestTrace } from '../trace'
import { fromBase64 } from '../wire/base64'

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

/**
 * A record to keep, or what a request left to make it from when it is first read (see
 * `ExchangeDraft`).
 */
export type KeptExchange = Omit<ExchangeRecord, 'id'> | { record(): Omit<ExchangeRecord, 'id'> }

/** The record itself, made now if it was kept to be made later. */
export const recordOf = (kept: KeptExchange): Omit<ExchangeRecord, 'id'> =>
  'record' in kept ? kept.record() : kept

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
