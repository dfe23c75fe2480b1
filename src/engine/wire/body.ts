import { InvalidError, TooLargeError } from '../errors'
import { locateJsonError } from './json-error'

/** A body the client stopped sending before its end: its fault, not the engine's. */
export const incompleteBody = () =>
  new InvalidError('the request body ended before it was complete', 'body_incomplete')

/**
 * Reads the whole body, refusing with 413 as soon as it passes `limit` bytes: at once when its
 * declared `content-length` does. A body whose length is declared within the limit is read in
 * one piece (`arrayBuffer()`: over HTTP the length frames the body, so it cannot run past it,
 * and Node's server reads it without building a stream); one of no declared length (chunked,
 * streamed) is read a piece at a time and refused at the piece that passes the limit.
 */
export async function readBody(request: Request, limit: number): Promise<Uint8Array> {
  const header = request.headers.get('content-length')
  if (header !== null && /^\s*\d+\s*$/.test(header)) {
    if (Number(header) > limit) throw new TooLargeError(limit)
    let bytes: ArrayBuffer
    try {
      bytes = await request.arrayBuffer()
    } catch {
      // The client went away (or its body broke off) mid-request: its fault, not the engine's.
      throw incompleteBody()
    }
    // A body longer than it said (possible only for a Request made in this process).
    if (bytes.byteLength > limit) throw new TooLargeError(limit)
    return new Uint8Array(bytes)
  }
  if (!request.body) return new Uint8Array(0)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>
    try {
      chunk = await reader.read()
    } catch {
      throw incompleteBody()
    }
    const { done, value } = chunk
    if (done) break
    size += value.byteLength
    if (size > limit) {
      // Not awaited: cancelling one branch of a teed body (msw keeps a clone) settles only once
      // every branch is cancelled, which may be never.
      void reader.cancel().catch(() => undefined)
      throw new TooLargeError(limit)
    }
    chunks.push(value)
  }
  return concat(chunks, size)
}

/** The chunks, in order, as one array of `size` bytes. */
export function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!
  const body = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    body.set(chunk, offset)
    offset += chunk.byteLength
  }
  return body
}

const decoder = new TextDecoder('utf-8', { fatal: true })

export function decodeText(body: Uint8Array): string {
  try {
    return decoder.decode(body)
  } catch {
    throw new InvalidError('the body is not valid UTF-8 text')
  }
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    const place = locateJsonError(text)
    // V8's own message names no place in the body for some mistakes: say where, when we can.
    throw new InvalidError(
      place
        ? `the body is not valid JSON: unexpected ${place.found} at line ${place.line}, column ${place.column}`
        : `the body is not valid JSON (${(error as Error).message})`,
    )
  }
}
