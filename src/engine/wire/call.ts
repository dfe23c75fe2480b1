import { readBody } from './body'

/**
 * A request as the engine reads it to answer an endpoint call. `callOf` makes one of a Fetch
 * `Request` (`engine.handle`); the Node server makes one straight from `node:http`, with no
 * Fetch objects (`engine.answer`).
 */
export interface Call {
  readonly method: string
  /** The URL's path, as `new URL(url).pathname` gives it. */
  readonly pathname: string
  /** The URL's query string, with its `?` (or empty), as `new URL(url).search` gives it. */
  readonly search: string
  /** A header's value (names in lowercase), or `null`. */
  header(name: string): string | null
  /**
   * The whole body; 413 (`TooLargeError`) as soon as it passes `limit` bytes, at once when its
   * declared length does; 400 (`body_incomplete`) when the client goes away before its end.
   */
  body(limit: number): Promise<Uint8Array>
  /**
   * The request as a Fetch `Request`, for what reads one (strict mode, faults, the journal);
   * its body is read through `body` only.
   */
  request(): Request
}

/** A Fetch `Request` (whose URL `url` is, already parsed) as a `Call`. */
export function callOf(request: Request, url: URL = new URL(request.url)): Call {
  return {
    method: request.method,
    pathname: url.pathname,
    search: url.search,
    header: (name) => request.headers.get(name),
    body: (limit) => readBody(request, limit),
    request: () => request,
  }
}
