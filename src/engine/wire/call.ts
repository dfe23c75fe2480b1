/**
 * A request as plain data: what the engine's one entry (`engine.answer`) reads, on every path
 * — endpoint calls, preflights, the control plane — whatever carried it. Each adapter makes one
 * of its own kind of request, reading each part once: `callOf` of a Fetch `Request` (msw in the
 * page and in Node), the HTTP server of `node:http`'s request.
 */
export interface Call {
  readonly method: string
  /** The URL's origin, `http://127.0.0.1:8787`: for what names the whole URL (the journal). */
  readonly origin: string
  /** The URL's path, as `new URL(url).pathname` gives it. */
  readonly pathname: string
  /** The URL's query string, with its `?` (or empty), as `new URL(url).search` gives it. */
  readonly search: string
  /** A header's value (names in lowercase), repeated ones joined as Fetch joins them; or `null`. */
  header(name: string): string | null
  /**
   * Every header, names in lowercase (in any order; the journal sorts them by name when it
   * makes its record). The journal keeps what this returns as it is: it must not change once
   * the request is answered.
   */
  headers(): Iterable<[string, string]>
  /**
   * The whole body; 413 (`TooLargeError`) as soon as it passes `limit` bytes, at once when its
   * declared length does; 400 (`body_incomplete`) when the client goes away before its end.
   */
  body(limit: number): Promise<Uint8Array>
  /**
   * Aborted once the client has gone away before its answer (its connection closed): work done
   * for it alone (reach, simulate, diff, coverage, a wait for its turn) stops. Absent where
   * nothing tells.
   */
  readonly signal?: AbortSignal
}

/** The whole URL of a call, as a Fetch `Request` says it. */
export const urlOf = (call: Call): string => `${call.origin}${call.pathname}${call.search}`
