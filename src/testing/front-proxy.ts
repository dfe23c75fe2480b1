// A small front for tests: a reverse proxy on 127.0.0.1 (port 0) that passes every request on
// to `upstream` with `Host` set to the upstream's address, as nginx's `proxy_pass` does by
// default; over TLS when given a key and certificate; and, when asked, changing answers' bodies.
import {
  createServer as createHttpServer,
  request,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'

export interface FrontOptions {
  /** Where requests go on to: `http://127.0.0.1:<port>`. */
  upstream: string
  /** Listen over TLS with this key and certificate (PEM). */
  tls?: { key: string; cert: string }
  /** Headers added to every request passed on (`x-forwarded-proto`, say). */
  forward?: Record<string, string>
  /**
   * A changed answer body for a request to `path`; `undefined` leaves it as it was. Answers are
   * then asked of the upstream whole and uncompressed, and a changed one loses its validators.
   */
  rewrite?: (path: string, body: string) => string | undefined
}

export interface Front {
  /** `http(s)://127.0.0.1:<port>`. */
  url: string
  /** The paths of the requests passed on, in order. */
  seen: string[]
  close(): Promise<void>
}

/** Starts a front before `options.upstream`. */
export async function startFront(options: FrontOptions): Promise<Front> {
  const upstream = new URL(options.upstream)
  const seen: string[] = []
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    seen.push(req.url ?? '')
    const headers = { ...req.headers, host: upstream.host, ...options.forward }
    // A body to change is asked for whole and as it is: not compressed, not revalidated.
    if (options.rewrite) {
      for (const name of ['accept-encoding', 'if-none-match', 'if-modified-since'] as const) {
        delete headers[name]
      }
    }
    const out = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () => {
          const body = Buffer.concat(chunks)
          const changed = options.rewrite?.(req.url ?? '', body.toString('utf8'))
          const sent = changed === undefined ? body : Buffer.from(changed)
          const {
            'content-length': _length,
            'transfer-encoding': _chunked,
            ...rest
          } = answer.headers
          // The upstream's validators do not name a changed body.
          if (changed !== undefined) {
            delete rest.etag
            delete rest['last-modified']
          }
          res.writeHead(answer.statusCode ?? 502, { ...rest, 'content-length': sent.length })
          res.end(sent)
        })
      },
    )
    out.on('error', () => {
      res.writeHead(502)
      res.end()
    })
    req.pipe(out)
  }
  const server = options.tls ? createHttpsServer(options.tls, handle) : createHttpServer(handle)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
