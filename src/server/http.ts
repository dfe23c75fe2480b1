import { serve } from '@hono/node-server'
import type { HttpBindings, Http2Bindings } from '@hono/node-server'
import type { Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Engine } from '../engine'
import { withDirectCalls } from './direct'
import { checkHost, hostAllowed, type GateOptions } from './gate'
import { createHost, type HostOptions } from './host'

export interface ListenOptions extends Partial<GateOptions> {
  /** 0 picks a free port. */
  port: number
  /** Default `127.0.0.1`. */
  host?: string
  /** Accounts hosted beside the engine's own, under `/a/<id>` (see `createHost`). */
  accounts?: Omit<HostOptions, 'controlToken'>
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
export async function listen(
  engine: Engine,
  { port, host = '127.0.0.1', controlToken, allowedHosts, accounts }: ListenOptions,
): Promise<Listener> {
  const hosting = await createHost(engine, { ...accounts, controlToken })
  const foreign = checkHost({ host, allowedHosts: allowedHosts ?? [] })
  const fetch = async (request: Request, env: HttpBindings | Http2Bindings) => {
    const response = foreign(request) ?? (await hosting.handle(request))
    return onTheWire(response, env.incoming.socket as Socket)
  }
  const origin = host.includes(':') ? `[${host}]` : host
  return new Promise((resolve, reject) => {
    // Plain HTTP/1.1: `serve` makes a `node:http` server unless told to make another kind.
    const stop = async (graceMs: number) => {
      await new Promise<void>((done, fail) => {
        const cut = setTimeout(() => server.closeAllConnections(), graceMs)
        server.close((error) => {
          clearTimeout(cut)
          if (error) fail(error)
          else done()
        })
        server.closeIdleConnections()
      })
      await hosting.close()
    }
    // Endpoint calls go straight from node:http to the engine; the rest through Fetch objects.
    const createServer = withDirectCalls(hosting.engineFor, hostAllowed({ host, allowedHosts }))
    const server = serve({ fetch, port, hostname: host, createServer }, ({ port }: AddressInfo) =>
      resolve({
        url: `http://${origin}:${port}`,
        port,
        close: () => stop(1000),
        stop,
      }),
    ) as Server
    server.once('error', reject)
    server.on('clientError', answerClientError)
    // Node hands CONNECT to this event, not to the request handler, and closes it unanswered.
    server.on('connect', (_request: unknown, socket: Socket) =>
      answerRaw(
        socket,
        405,
        'Method Not Allowed',
        'method not allowed; use POST',
        'allow: POST\r\n',
      ),
    )
  })
}

/**
 * What HTTP makes of an answer: a network error (a fault) drops the connection, and a body
 * that breaks off (a reset fault) drops it once what came before is sent; after a 413 the
 * connection closes, since whatever the client still sends would be read as the next request.
 */
function onTheWire(response: Response, socket: Socket): Response {
  if (response.type === 'error') {
    socket.destroy()
    return new Response(null, { status: 204 })
  }
  if (response.status === 413) response.headers.set('connection', 'close')
  if (response.headers.get('x-fault') === 'reset' && response.body) {
    const reader = response.body.getReader()
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const chunk = await reader.read().catch(() => undefined)
        if (chunk && !chunk.done) return controller.enqueue(chunk.value)
        // Sent what there was; the rest never comes.
        setImmediate(() => socket.destroy())
        return new Promise<void>(() => undefined)
      },
    })
    return new Response(body, { status: response.status, headers: response.headers })
  }
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
  answerRaw(socket, status, reason, message)
}

/** An answer written straight to the socket, in the engine's JSON error format; then it closes. */
function answerRaw(socket: Socket, status: number, reason: string, message: string, extra = '') {
  const body = JSON.stringify({ error: { message } })
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n${extra}content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  )
}
