import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Call, Reply } from '../engine'
import { formats } from '../engine/wire/formats'
import { refusal } from '../engine/wire/response'
import { forwardedOrigin } from './forwarded'
import { checkHost } from './gate'
import { nodeCall, readHeaders } from './node-call'
import { writeReply } from './write-reply'

/**
 * An answer whose body comes a piece at a time, written as it comes (what a proxy passes on):
 * its status and headers at once, in their order and case, a length only when they give one.
 */
export interface StreamedReply {
  status: number
  statusMessage?: string
  headers: ReadonlyArray<readonly [string, string]>
  /** Read to its end; a body that throws closes the client's connection mid-answer. */
  body: AsyncIterable<Uint8Array>
  /** Lets the rest go: called when the client leaves before the end. */
  cancel(): void
}

/**
 * What a listener serves: each request as a `Call`, answered with a `Reply` (its fault, if
 * any, done on the socket) or a `StreamedReply`. A rejection is a fault of the server's: 500.
 */
export type Answer = (call: Call) => Promise<Reply | StreamedReply>

export interface ListenerOptions {
  /** 0 picks a free port. */
  port: number
  /** Default `127.0.0.1`. */
  host?: string
  /** Names besides the loopback ones (and `host`) the `Host` header may give. */
  allowedHosts?: readonly string[]
  /** Who answers, as a rejected answer is logged: `<name> fault: …`. Default `server`. */
  name?: string
  /**
   * Believe a front's `Forwarded` (or `X-Forwarded-Host` and `X-Forwarded-Proto`): each call's
   * origin is the one the client called by (see `forwardedOrigin`). Off by default: a client
   * could otherwise name any origin for the links and account URLs the server makes.
   */
  trustProxy?: boolean
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
 * The one HTTP listener, straight from `node:http`, for any `answer`: `serve`'s engine and
 * hosted accounts, and shadow mode. A `Host` it does not answer for is refused first whatever
 * the target; a target that makes no URL is refused 400; every other request is read as a
 * `Call` (its body read when the answer asks, within the answer's limit, a body past it
 * answered 413 after lingering: see `nodeCall`) and its answer written as it is. Requests
 * Node's own parser refuses, and CONNECT, are answered in the engine's JSON error format.
 */
export async function listenWith(
  answer: Answer,
  { port, host = '127.0.0.1', allowedHosts = [], name = 'server', trustProxy }: ListenerOptions,
): Promise<Listener> {
  const foreign = checkHost({ host, allowedHosts })
  const server = createServer((req, res) => {
    // The headers' one reading: the Host check's, the URL's and the call's.
    const read = readHeaders(req.rawHeaders)
    const front = trustProxy ? frontOf(req) : undefined
    const call = typeof front === 'object' ? undefined : nodeCall(req, res, front, read)
    const refused =
      foreign(read.hosts) ??
      (typeof front === 'object'
        ? refusal(400, `${front.problem}: serve --trust-proxy reads it for the links it makes`)
        : undefined) ??
      (call
        ? undefined
        : refusal(400, `the request target \`${req.url}' is not a URL this server reads`))
    if (refused || !call) return writeReply(req, res, refused!)
    answer(call).then(
      (reply) => ('cancel' in reply ? void writeStreamed(res, reply) : writeReply(req, res, reply)),
      (error: unknown) => {
        // An answer turns every error it knows into a reply; this is a fault of the server's.
        console.error(`${name} fault:`, error)
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
  const stop = (graceMs: number) =>
    new Promise<void>((done, fail) => {
      const cut = setTimeout(() => server.closeAllConnections(), graceMs)
      server.close((error) => {
        clearTimeout(cut)
        if (error) fail(error)
        else done()
      })
      server.closeIdleConnections()
    })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      const { port } = server.address() as AddressInfo
      resolve({ url: `http://${origin}:${port}`, port, close: () => stop(1000), stop })
    })
  })
}

/** The origin a trusted front says the client called by, if it says one. */
function frontOf(req: IncomingMessage) {
  const header = (name: string) => {
    const value = req.headers[name]
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
  }
  return forwardedOrigin(header, req.headers.host ?? '')
}

/**
 * Writes an answer as it comes, a piece at a time as the client takes it, never held whole; a
 * body that breaks off closes the client's connection (it meets what it would have met), and
 * a client that goes away lets the rest of the answer go.
 */
async function writeStreamed(res: ServerResponse, reply: StreamedReply): Promise<void> {
  if (res.destroyed) return reply.cancel()
  res.once('close', () => {
    if (!res.writableFinished) reply.cancel()
  })
  // A length when the answer gave one, else chunked.
  res.writeHead(reply.status, reply.statusMessage, reply.headers.flat())
  try {
    for await (const piece of reply.body) {
      if (!res.write(piece) && !(await drained(res))) return reply.cancel()
    }
    res.end()
  } catch {
    res.socket?.destroy()
  }
}

/** Resolves once `res` can take more (`true`), or once its connection is gone (`false`). */
function drained(res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false)
  return new Promise((resolve) => {
    const done = (more: boolean) => () => {
      res.off('drain', onDrain)
      res.off('close', onClose)
      resolve(more)
    }
    const onDrain = done(true)
    const onClose = done(false)
    res.once('drain', onDrain)
    res.once('close', onClose)
  })
}

/**
 * Requests Node's own parser refuses (a method it does not know, headers or a URL past its
 * size limit) never reach the answer: answered in the engine's JSON error format anyway,
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
