import { serve } from '@hono/node-server'
import type { Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Engine } from '../engine'
import { gate, type GateOptions } from './gate'

export interface ListenOptions extends Partial<GateOptions> {
  /** 0 picks a free port. */
  port: number
  /** Default `127.0.0.1`. */
  host?: string
}

export interface Listener {
  /** The server's own URL, `http://<host>:<port>`. */
  url: string
  port: number
  close(): Promise<void>
  /**
   * Stops taking connections, closes idle ones at once, gives requests in flight up to
   * `graceMs` to be answered, then cuts whatever is still open (a client that never finishes
   * its request included). Resolves once every connection is closed.
   */
  stop(graceMs: number): Promise<void>
}

/**
 * Serves the engine over real HTTP. The engine only compares paths, so give it a base URL
 * with an empty path (any origin) and it answers at the server's own URL.
 */
export function listen(
  engine: Engine,
  { port, host = '127.0.0.1', ...guard }: ListenOptions,
): Promise<Listener> {
  const guarded = gate(engine, { host, ...guard })
  const fetch = async (request: Request) => closingAfterRefusedBody(await guarded(request))
  const origin = host.includes(':') ? `[${host}]` : host
  return new Promise((resolve, reject) => {
    // Plain HTTP/1.1: `serve` makes a `node:http` server unless told to make another kind.
    const server = serve({ fetch, port, hostname: host }, ({ port }: AddressInfo) =>
      resolve({
        url: `http://${origin}:${port}`,
        port,
        close: () =>
          new Promise<void>((done, fail) =>
            server.close((error) => (error ? fail(error) : done())),
          ),
        stop: (graceMs) =>
          new Promise<void>((done, fail) => {
            const cut = setTimeout(() => server.closeAllConnections(), graceMs)
            server.close((error) => {
              clearTimeout(cut)
              if (error) fail(error)
              else done()
            })
            server.closeIdleConnections()
          }),
      }),
    ) as Server
    server.once('error', reject)
    server.on('clientError', answerClientError)
  })
}

/**
 * A 413 is answered before the rest of its body is read; whatever the client still sends
 * would be read as the next request on the connection. Close it instead.
 */
function closingAfterRefusedBody(response: Response): Response {
  if (response.status === 413) response.headers.set('connection', 'close')
  return response
}

/**
 * Requests Node's own parser refuses (a method it does not know, headers or a URL past its
 * size limit) never reach the engine: answer them in the engine's JSON error format anyway,
 * saying what to change, rather than with Node's empty 400.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW'
  const [status, reason, message] = tooLarge
    ? [
        431,
        'Request Header Fields Too Large',
        'the request line and headers are larger than 16 KiB: send long arguments in the body, not the query string',
      ]
    : [
        400,
        'Bad Request',
        `the request is not well-formed HTTP/1.1 (${error.code ?? error.message}); endpoints are called with POST`,
      ]
  const body = JSON.stringify({ error: { message } })
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  )
}
