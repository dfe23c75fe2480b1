import { InvalidError, TooLargeError } from '../errors'
import { locateJsonError } from './json-error'

/** Reads the whole body, refusing with 413 as soon as it passes `limit` bytes. */
export async function readBody(request: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > limit) throw new TooLargeError(limit)
  if (!request.body) return new Uint8Array(0)
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>
    try {
      chunk = await reader.read()
    } catch {
      // The client went away (or its body broke off) mid-request: its fault, not the engine's.
      throw new InvalidError('the request body ended before it was complete', 'body_incomplete')
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
