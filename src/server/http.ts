import { createServer } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Engine } from '../engine'
import { formats } from '../engine/wire/formats'
import { refusal } from '../engine/wire/response'
import { checkHost, hostsOf, type GateOptions } from './gate'
import { createHost, type HostOptions } from './host'
import { nodeCall } from './node-call'
import { writeReply } from './write-reply'

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
 * Serves the engine over real HTTP, straight from `node:http`: each request read as a `Call`,
 * answered by the host (the engine's own account and those it hosts), the `Reply` written as
 * it is, and a fault done on the socket itself. No Fetch objects. The engine only compares
 * paths, so give it a base URL with an empty path (any origin) and it answers at the server's
 * own URL.
 */
export async function listen(
  engine: Engine,
  { port, host = '127.0.0.1', controlToken, allowedHosts, accounts }: ListenOptions,
): Promise<Listener> {
  const hosting = await createHost(engine, { ...accounts, controlToken })
  const foreign = checkHost({ host, allowedHosts: allowedHosts ?? [] })
  const server = createServer((req, res) => {
    // The Host first: one this server does not answer for is refused whatever the target.
    const call = nodeCall(req, res)
    const refused =
      foreign(hostsOf(req.rawHeaders)) ??
      (call
        ? undefined
        : refusal(400, `the request target \`${req.url}' is not a URL this server reads`))
    if (refused || !call) return writeReply(req, res, refused!)
    hosting.answer(call).then(
      (reply) => writeReply(req, res, reply),
      (error: unknown) => {
        // The host turns every error it knows into a reply; this is a fault of the server's.
        console.error('engine fault:', error)
        writeReply(req, res, refusal(500, 'internal error'))
      },
    )
  })
  server.on('clientError', answerClientError)
  // Node hands CONNECT to this event, not to the request handler, and closed it unanswered.
  server.on('connect', (_request: unknown, socket: Socket) =>
    answerRaw(socket, 405, 'Method Not Allowed', 'method not allowed; use POST', 'allow: POST\r\n'),
  )
  const origin = host.includes(':') ? `[${host}]` : host
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
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      const { port } = server.address() as AddressInfo
      resolve({ url: `http://${origin}:${port}`, port, close: () => stop(1000), stop })
    })
  })
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
  const body = formats.json.write({ error: message })
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n${extra}content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  )
}
