import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type ServerOptions,
  type ServerResponse,
} from 'node:http'
import type { Call, Engine } from '../engine'
import { TooLargeError } from '../engine/errors'
import { concat, incompleteBody } from '../engine/wire/body'
import type { Reply } from '../engine/wire/response'

/** The engine that answers endpoint calls at a path (once found), or `undefined` for any other. */
export type EngineFor = (pathname: string) => Engine | Promise<Engine | undefined> | undefined

/**
 * A request target whose path the WHATWG URL parser leaves as it is (letters, digits, `-`, `_`
 * and `/`), with a query of printable ASCII and no fragment: for these, the path and query read
 * straight off the request line are the ones a Fetch `Request` would give.
 */
const PLAIN_TARGET = /^(\/[A-Za-z0-9_\-/]*)(\?[\x21-\x22\x24-\x7e]*)?$/

/**
 * A `node:http` request listener that answers endpoint calls from the request itself, reading
 * the body as it arrives and writing the engine's reply, with no Fetch objects. Anything else
 * goes to `fallback` (the Fetch bridge) untouched: a request for a host that is not allowed,
 * a path this listener does not read as the URL parser would, anything but POST, anything not
 * an endpoint call, and any call the engine says needs Fetch objects (`engine.answer`).
 */
export function directListener(
  engineFor: EngineFor,
  allowedHost: (header: string) => boolean,
  fallback: RequestListener,
): RequestListener {
  return (req, res) => {
    const target = req.method === 'POST' ? PLAIN_TARGET.exec(req.url ?? '') : null
    const call = target ? nodeCall(req, target[1]!, target[2] ?? '') : undefined
    const found =
      call && allowedHost(call.header('host') ?? '') ? engineFor(call.pathname) : undefined
    if (!found) return fallback(req, res)
    // Anything that goes wrong before the engine reads the body is the Fetch bridge's to answer.
    const answered =
      found instanceof Promise ? found.then((engine) => engine?.answer(call!)) : found.answer(call!)
    answered.then(
      (reply) => (reply ? write(res, reply) : fallback(req, res)),
      (error: unknown) => {
        if (!call!.read) return fallback(req, res)
        // `answer` turns every error into a reply; this is a fault in the listener itself.
        console.error('engine fault:', error)
        write(res, {
          status: 500,
          headers: { 'content-type': 'application/json' },
          body: '{"error":{"message":"internal error"}}',
        })
      },
    )
  }
}

/**
 * A `createServer` for @hono/node-server's `serve`: its Fetch bridge becomes the fallback of a
 * `directListener`.
 */
export function withDirectCalls(
  engineFor: EngineFor,
  allowedHost: (header: string) => boolean,
): typeof createServer {
  return ((options: ServerOptions, listener: RequestListener) =>
    createServer(options, directListener(engineFor, allowedHost, listener))) as typeof createServer
}

/** An incoming request as the engine's `Call`; `read` once its body has been asked for. */
function nodeCall(
  req: IncomingMessage,
  pathname: string,
  search: string,
): Call & { read: boolean } {
  let headers: Map<string, string> | undefined
  const header = (name: string): string | null => {
    if (!headers) {
      // As a Fetch `Headers` reads them: every value of a repeated header, joined.
      headers = new Map()
      const raw = req.rawHeaders
      for (let i = 0; i < raw.length; i += 2) {
        const key = raw[i]!.toLowerCase()
        const seen = headers.get(key)
        headers.set(key, seen === undefined ? raw[i + 1]! : `${seen}, ${raw[i + 1]!}`)
      }
    }
    return headers.get(name) ?? null
  }
  const call = {
    read: false,
    method: req.method ?? 'GET',
    pathname,
    search,
    header,
    body: (limit: number) => {
      call.read = true
      return readBody(req, header('content-length'), limit)
    },
    request: () => {
      const host = req.headers.host ?? 'localhost'
      const init: RequestInit = { method: req.method ?? 'GET', headers: [] }
      const list = init.headers as [string, string][]
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        list.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!])
      }
      return new Request(`http://${host}${pathname}${search}`, init)
    },
  }
  return call
}

/**
 * The whole body: 413 at once when its declared length passes `limit`, or as soon as what
 * arrives does (nothing more is read, and the connection closes after the answer); 400 when the
 * client goes away before the end.
 */
function readBody(req: IncomingMessage, declared: string | null, limit: number) {
  if (declared !== null && Number(declared) > limit) {
    return Promise.reject(new TooLargeError(limit))
  }
  return new Promise<Uint8Array>((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const done = () => {
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onFailure)
      req.off('close', onFailure)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength
      if (size > limit) {
        done()
        req.pause()
        reject(new TooLargeError(limit))
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => {
      done()
      resolve(concat(chunks, size))
    }
    const onFailure = () => {
      done()
      reject(incompleteBody())
    }
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onFailure)
    req.on('close', onFailure)
  })
}

function write(res: ServerResponse, { status, headers, body }: Reply): void {
  if (res.destroyed) return
  // Whatever the client still sends after a 413 would be read as the next request: close.
  if (status === 413) headers.connection = 'close'
  headers['content-length'] = String(
    typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength,
  )
  res.writeHead(status, headers)
  res.end(body)
}
