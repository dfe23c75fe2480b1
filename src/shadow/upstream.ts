import { request as httpRequest, Agent as HttpAgent } from 'node:http'
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'

/** A request as the shadow passes it on: the path below the upstream's base URL. */
export interface UpstreamRequest {
  method: string
  /** Below the base URL, with its leading `/`: `/keyv/get`. */
  pathname: string
  /** The query string with its `?`, or empty. */
  search: string
  /** As the client sent them, names in any case, repeated ones repeated. */
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

/** Where the shadow sends what its client asks: the real service, or a stand-in in tests. */
export interface Upstream {
  /** The base URL every request goes below; no path after it but the base's own. */
  baseUrl: string
  send(request: UpstreamRequest): Promise<UpstreamAnswer>
  close(): void
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
 * `host`, which names the upstream), its answer read whole and returned as it came.
 */
export function httpUpstream(baseUrl: string, timeoutMs = UPSTREAM_TIMEOUT_MS): Upstream {
  const base = new URL(baseUrl)
  const basePath = base.pathname.replace(/\/+$/, '')
  const secure = base.protocol === 'https:'
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true })
  const send = secure ? httpsRequest : httpRequest
  return {
    baseUrl: `${base.origin}${basePath}`,
    close: () => agent.destroy(),
    send: (request) =>
      new Promise<UpstreamAnswer>((resolve, reject) => {
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
            const chunks: Buffer[] = []
            incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
            incoming.on('error', (error) => reject(new UpstreamError(error.message, codeOf(error))))
            incoming.on('end', () => {
              const kept: Array<[string, string]> = []
              const raw = incoming.rawHeaders
              for (let i = 0; i < raw.length; i += 2) {
                if (!CONNECTION_HEADERS.has(raw[i]!.toLowerCase()))
                  kept.push([raw[i]!, raw[i + 1]!])
              }
              resolve({
                status: incoming.statusCode ?? 502,
                ...(incoming.statusMessage ? { statusMessage: incoming.statusMessage } : {}),
                headers: kept,
                body: new Uint8Array(Buffer.concat(chunks)),
              })
            })
            incoming.on('aborted', () =>
              reject(
                new UpstreamError('the upstream closed the connection mid-answer', 'ECONNRESET'),
              ),
            )
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
