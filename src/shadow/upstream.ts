import { request as httpRequest, Agent as HttpAgent, type IncomingMessage } from 'node:http'
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https'
import { brotliDecompressSync, constants, gunzipSync, inflateSync } from 'node:zlib'
import { basePathOf } from '../client/wire'

/** A request as the shadow passes it on: the path below the upstream's base URL. */
export interface UpstreamRequest {
  method: string
  /** Below the base URL, with its leading `/`: `/keyv/get`. */
  pathname: string
  /** The query string with its `?`, or empty. */
  search: string
  /**
   * As the client sent them: from the listener, as its `Call` reads them (names in lowercase,
   * a repeated one's values joined as Fetch joins them); from a recorded request, as recorded.
   */
  headers: ReadonlyArray<readonly [string, string]>
  body: Uint8Array
}

/** The upstream's answer, as it came: what the client gets, byte for byte. */
export interface UpstreamAnswer {
  status: number
  statusMessage?: string
  /** As the upstream sent them, in its order and case (hop-by-hop headers left out). */
  headers: Array<[string, string]>
  body: Uint8Array
}

/**
 * The upstream's answer as it comes: its status and headers at once, its body a piece at a
 * time. Reading the body to its end reads the answer; a body the upstream breaks off throws an
 * `UpstreamError`; stopping early (`break`) or `cancel` lets the rest go.
 */
export interface UpstreamStream extends Omit<UpstreamAnswer, 'body'> {
  body: AsyncIterable<Uint8Array>
  /** Lets the rest of the answer go, whether its body was begun or not: its connection drops. */
  cancel(): void
}

/** Where the shadow sends what its client asks: the real service, or a stand-in in tests. */
export interface Upstream {
  /** The base URL every request goes below; no path after it but the base's own. */
  baseUrl: string
  /** The answer, whole (a stand-in in this process) or as it comes (over HTTP). */
  send(request: UpstreamRequest): Promise<UpstreamAnswer | UpstreamStream>
  close(): void
}

/** The pieces of an answer's body, whether it came whole or comes as it is sent. */
export async function* piecesOf(
  answer: UpstreamAnswer | UpstreamStream,
): AsyncIterable<Uint8Array> {
  if (answer.body instanceof Uint8Array) {
    if (answer.body.length > 0) yield answer.body
    return
  }
  yield* answer.body
}

/**
 * An answer's body read to its end, or to its first `limit` bytes (the rest then left unread,
 * and its connection dropped): the bytes, and whether they are the whole body.
 */
export async function readPrefix(
  answer: UpstreamAnswer | UpstreamStream,
  limit: number,
): Promise<{ body: Uint8Array; whole: boolean; bytes: number }> {
  const kept = new Prefix(limit)
  for await (const piece of piecesOf(answer)) {
    kept.add(piece)
    if (!kept.whole) break
  }
  if (!kept.whole && 'cancel' in answer) answer.cancel()
  return { body: kept.bytes(), whole: kept.whole, bytes: kept.size }
}

/** The first `limit` bytes of a body that comes in pieces, and its size so far. */
export class Prefix {
  private readonly pieces: Uint8Array[] = []
  private held = 0
  /** Bytes seen in all. */
  size = 0

  constructor(readonly limit: number) {}

  add(piece: Uint8Array): void {
    this.size += piece.length
    const room = this.limit - this.held
    if (room <= 0) return
    const kept = piece.length <= room ? piece : piece.subarray(0, room)
    this.pieces.push(kept)
    this.held += kept.length
  }

  /** Whether what is kept is the whole body seen so far. */
  get whole(): boolean {
    return this.size <= this.limit
  }

  /** What is kept, as one array (a copy: a piece may be a view of a larger buffer). */
  bytes(): Uint8Array {
    const out = new Uint8Array(this.held)
    let offset = 0
    for (const piece of this.pieces) {
      out.set(piece, offset)
      offset += piece.length
    }
    return out
  }
}

/**
 * Headers about one connection, not the message (RFC 9110 §7.6.1), and `host`, which names the
 * upstream: never passed on either way. `content-length` is the body's, set anew.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
  'host',
  'content-length',
])

/** What an answer says about its connection alone: the shadow's own connection says its own. */
const CONNECTION_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

/** How long an upstream may take to answer before the client's connection is closed. */
export const UPSTREAM_TIMEOUT_MS = 120_000

/** The upstream did not answer: the client meets the same (its connection closes). */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message)
    this.name = 'UpstreamError'
  }
}

/**
 * The upstream over HTTP(S) at `baseUrl`, over kept-alive connections: each request sent with
 * the client's method, path, query, headers and body as they came (but the hop-by-hop ones and
 * `host`, which names the upstream), its answer returned as it comes: the status and headers
 * as they came, the body a piece at a time, never held whole.
 */
export function httpUpstream(baseUrl: string, timeoutMs = UPSTREAM_TIMEOUT_MS): Upstream {
  const base = new URL(baseUrl)
  const basePath = basePathOf(base)
  const secure = base.protocol === 'https:'
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true })
  const send = secure ? httpsRequest : httpRequest
  return {
    baseUrl: `${base.origin}${basePath}`,
    close: () => agent.destroy(),
    send: (request) =>
      new Promise<UpstreamStream>((resolve, reject) => {
        const headers: Array<[string, string]> = []
        for (const [name, value] of request.headers) {
          if (!HOP_BY_HOP.has(name.toLowerCase())) headers.push([name, value])
        }
        headers.push(['host', base.host])
        if (request.body.length > 0 || !['GET', 'HEAD', 'OPTIONS'].includes(request.method)) {
          headers.push(['content-length', String(request.body.length)])
        }
        const outgoing = send(
          {
            protocol: base.protocol,
            hostname: base.hostname.replace(/^\[|\]$/g, ''),
            port: base.port,
            method: request.method,
            path: `${basePath}${request.pathname}${request.search}`,
            headers: headers.flat(),
            agent,
            timeout: timeoutMs,
          },
          (incoming) => {
            const kept: Array<[string, string]> = []
            const raw = incoming.rawHeaders
            for (let i = 0; i < raw.length; i += 2) {
              if (!CONNECTION_HEADERS.has(raw[i]!.toLowerCase())) kept.push([raw[i]!, raw[i + 1]!])
            }
            resolve({
              status: incoming.statusCode ?? 502,
              ...(incoming.statusMessage ? { statusMessage: incoming.statusMessage } : {}),
              headers: kept,
              body: bodyOf(incoming),
              cancel: () => incoming.destroy(),
            })
          },
        )
        outgoing.on('timeout', () => {
          outgoing.destroy(new UpstreamError(`no answer within ${timeoutMs / 1000} s`, 'ETIMEDOUT'))
        })
        outgoing.on('error', (error) =>
          reject(
            error instanceof UpstreamError
              ? error
              : new UpstreamError(error.message, codeOf(error)),
          ),
        )
        outgoing.end(request.body)
      }),
  }
}

/**
 * An incoming answer's body, a piece at a time: an `UpstreamError` when the upstream breaks it
 * off; stopping early destroys it, and the connection with it (an answer read halfway cannot
 * leave its connection for the next request).
 */
async function* bodyOf(incoming: IncomingMessage): AsyncIterable<Uint8Array> {
  let ended = false
  try {
    for await (const piece of incoming as AsyncIterable<Buffer>) yield piece
    ended = true
  } catch (error) {
    if (error instanceof UpstreamError) throw error
    throw new UpstreamError('the upstream closed the connection mid-answer', codeOf(error as Error))
  } finally {
    if (!ended) incoming.destroy()
  }
}

const codeOf = (error: Error) => (error as Error & { code?: string }).code ?? 'ERROR'

/** Headers as one record: names in lowercase, a repeated one's values joined as Fetch joins them. */
export function headerRecord(
  headers: ReadonlyArray<readonly [string, string]>,
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of headers) {
    const key = name.toLowerCase()
    out[key] = out[key] === undefined ? value : `${out[key]}, ${value}`
  }
  return out
}

/**
 * An answer's body as its `content-encoding` leaves it once undone (gzip, deflate, br), for
 * comparing: the client still gets the bytes as they came. Unchanged when it cannot be undone.
 */
export function decodedBody(headers: Record<string, string>, body: Uint8Array): Uint8Array {
  const encoding = (headers['content-encoding'] ?? '').trim().toLowerCase()
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return new Uint8Array(gunzipSync(body))
    if (encoding === 'deflate') return new Uint8Array(inflateSync(body))
    if (encoding === 'br') return new Uint8Array(brotliDecompressSync(body))
  } catch {
    return body
  }
  return body
}

/**
 * The first bytes of an answer's body with its `content-encoding` undone as far as they go (a
 * cut compressed stream is read up to its cut, not refused), for comparing; unchanged when they
 * cannot be undone.
 */
export function decodedPrefix(headers: Record<string, string>, body: Uint8Array): Uint8Array {
  const encoding = (headers['content-encoding'] ?? '').trim().toLowerCase()
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip')
      return new Uint8Array(gunzipSync(body, { finishFlush: constants.Z_SYNC_FLUSH }))
    if (encoding === 'deflate')
      return new Uint8Array(inflateSync(body, { finishFlush: constants.Z_SYNC_FLUSH }))
    if (encoding === 'br')
      return new Uint8Array(
        brotliDecompressSync(body, { finishFlush: constants.BROTLI_OPERATION_FLUSH }),
      )
  } catch {
    return body
  }
  return body
}
