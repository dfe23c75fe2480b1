import { fromBase64Url, toBase64Url } from '../../engine/bytes'

/**
 * A link's payload as text in a URL fragment: `v1.` then base64url of the JSON's UTF-8 bytes
 * compressed with raw deflate, by the platform's own `CompressionStream` (browsers and Node 20
 * both have it). Reading inflates under a byte bound, so a small hostile fragment (a deflate
 * bomb) cannot make the page hold more than `MAX_JSON_BYTES`.
 */

/** The version prefix this reader knows. */
export const LINK_VERSION = 'v1'

/** The longest fragment read: far above any step (2,000 characters is the goal). */
export const MAX_LINK_CHARS = 200_000

/** The most JSON bytes a fragment may inflate to. */
export const MAX_JSON_BYTES = 1024 * 1024

/** A fragment that is not a link this page can open; the message says why, for a person. */
export class LinkError extends Error {
  constructor(
    message: string,
    /** `too-long`, `version`, `garbled`, `too-big`, `not-json`, `shape`. */
    readonly code: string,
  ) {
    super(message)
    this.name = 'LinkError'
  }
}

async function drain(
  stream: ReadableStream<Uint8Array>,
  limit: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const reader = stream.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > limit) {
      await reader.cancel().catch(() => {})
      throw new LinkError(
        `the link inflates to more than ${limit} bytes, more than any step holds: it was not made by this tool`,
        'too-big',
      )
    }
    chunks.push(value)
  }
  const out = new Uint8Array(total)
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.byteLength
  }
  return out
}

function through(bytes: Uint8Array, transform: CompressionStream | DecompressionStream) {
  const writer = transform.writable.getWriter()
  // Errors surface on the readable side, where `drain` reads them.
  writer.write(bytes as Uint8Array<ArrayBuffer>).catch(() => {})
  writer.close().catch(() => {})
  return transform.readable as ReadableStream<Uint8Array>
}

/** `v1.<base64url(deflate-raw(json))>`. */
export async function packLink(json: string): Promise<string> {
  const bytes = new TextEncoder().encode(json)
  const packed = await drain(through(bytes, new CompressionStream('deflate-raw')), Infinity)
  return `${LINK_VERSION}.${toBase64Url(packed)}`
}

/**
 * The JSON text a `v1.…` value stands for. Throws `LinkError` for a value too long, of another
 * version, not base64url, not deflate (truncated or garbled), inflating past the bound, or not
 * UTF-8.
 */
export async function unpackLink(value: string): Promise<string> {
  if (value.length > MAX_LINK_CHARS) {
    throw new LinkError(
      `the link is ${value.length} characters long, more than the ${MAX_LINK_CHARS} a step's link can be: it was not made by this tool`,
      'too-long',
    )
  }
  const dot = value.indexOf('.')
  const version = dot < 0 ? '' : value.slice(0, dot)
  if (version !== LINK_VERSION) {
    throw new LinkError(
      /^v\d+$/.test(version)
        ? `the link is of format ${version}, and this playground reads ${LINK_VERSION}: open it in the version of the playground that made it`
        : `the link does not start with ${LINK_VERSION}. (was it cut or changed on the way?)`,
      'version',
    )
  }
  const bytes = fromBase64Url(value.slice(dot + 1))
  if (!bytes || bytes.length === 0) {
    throw new LinkError(
      'the link holds characters base64url does not have, or none at all (was it cut or changed on the way?)',
      'garbled',
    )
  }
  let inflated: Uint8Array
  try {
    inflated = await drain(through(bytes, new DecompressionStream('deflate-raw')), MAX_JSON_BYTES)
  } catch (error) {
    if (error instanceof LinkError) throw error
    throw new LinkError(
      'the link does not inflate: it is cut short or garbled (was it cut or changed on the way?)',
      'garbled',
    )
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(inflated)
  } catch {
    throw new LinkError('the link inflates to bytes that are not UTF-8 text', 'garbled')
  }
}
