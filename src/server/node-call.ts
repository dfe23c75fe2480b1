import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Call } from '../engine'
import { TooLargeError } from '../engine/errors'
import { concat, incompleteBody } from '../engine/wire/body'

/**
 * A request target whose path the WHATWG URL parser leaves as it is (letters, digits, `-`, `_`
 * and `/`), with a query of printable ASCII and no fragment, and a `Host` of a plain name:
 * read straight off the request line, they are what a Fetch `Request` would give.
 */
const PLAIN_TARGET = /^(\/[A-Za-z0-9_\-/]*)(\?[\x21-\x22\x24-\x7e]*)?$/
const PLAIN_HOST = /^[a-z0-9._-]+(:\d{1,5})?$/
/** A `Host` that is a name or an address (IPv6 in brackets, any spelling) and a port: no more. */
const HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=-]+)(:\d{1,5})?$/

/** A request's headers, read in one pass over `rawHeaders`. */
export interface ReadHeaders {
  /** By lowercase name, every value of a repeated header joined, as a Fetch `Headers` reads them. */
  headers: Map<string, string>
  /** Every `Host` given, as sent. */
  hosts: string[]
}

/** Reads `rawHeaders` (names and values in turn) once, for the Host check, the URL and the call. */
export function readHeaders(raw: readonly string[]): ReadHeaders {
  const headers = new Map<string, string>()
  const hosts: string[] = []
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]!.toLowerCase()
    const value = raw[i + 1]!
    if (key === 'host') hosts.push(value)
    const seen = headers.get(key)
    headers.set(key, seen === undefined ? value : `${seen}, ${value}`)
  }
  return { headers, hosts }
}

/**
 * The URL a request asks for: `undefined` when its target or `Host` (the first given, as
 * Node's own reading keeps it) makes none.
 */
function urlOf(
  req: IncomingMessage,
  host: string,
): Pick<Call, 'origin' | 'pathname' | 'search'> | undefined {
  const target = req.url ?? ''
  const plain = PLAIN_TARGET.exec(target)
  if (plain && PLAIN_HOST.test(host)) {
    return { origin: `http://${host}`, pathname: plain[1]!, search: plain[2] ?? '' }
  }
  // Any other target is read as the URL parser reads it (dot segments resolved, and so on),
  // except a backslash in the path, which readers take differently.
  const query = target.indexOf('?')
  const backslash = target.indexOf('\\')
  if (backslash !== -1 && (query === -1 || backslash < query)) return undefined
  const absolute = /^https?:\/\//i.test(target)
  if (!absolute && !target.startsWith('/')) return undefined
  try {
    const url = new URL(absolute ? target : `http://${host}${target}`)
    // A `Host` that is more than a name and a port (a path, user information) names no URL.
    if (!absolute && !HOST.test(host)) return undefined
    return { origin: url.origin, pathname: url.pathname, search: url.search }
  } catch {
    return undefined
  }
}

/**
 * An incoming request as the engine's `Call`, or `undefined` when it asks for no URL. Its
 * `signal` aborts when `res` closes before its answer is sent (the client went away); it is
 * made on first use only. `origin`, when given, is the one the client called by through a
 * trusted front (`forwardedOrigin`), in place of `http://<Host>`. `read` is its headers, when
 * the caller has read them already.
 */
export function nodeCall(
  req: IncomingMessage,
  res?: ServerResponse,
  origin?: string,
  { headers, hosts }: ReadHeaders = readHeaders(req.rawHeaders),
): Call | undefined {
  const read = urlOf(req, hosts[0] ?? '')
  if (!read) return undefined
  const url = origin === undefined ? read : { ...read, origin }
  let gone: AbortController | undefined
  const header = (name: string) => headers.get(name) ?? null
  return {
    method: req.method ?? 'GET',
    ...url,
    header,
    headers: () => headers,
    body: (limit) => readBody(req, header('content-length'), limit),
    get signal() {
      if (!res) return undefined
      if (!gone) {
        const controller = (gone = new AbortController())
        const closed = () => {
          if (!res.writableFinished) controller.abort()
        }
        if (res.closed) closed()
        else res.once('close', closed)
      }
      return gone.signal
    },
  }
}

/**
 * The most of a refused body that is read (and dropped) before its 413 is answered: as much as
 * the largest body any route takes (an import's 64 MiB). Node closes a connection it answers
 * before reading what the client sends, and most clients (fetch, undici) then meet a reset
 * while they still write, and never read the answer; curl does. Read to its end first, a body
 * past the limit is answered a 413 the client reads (decision 006).
 */
export const DISCARDED_BODY_BYTES = 64 * 1024 * 1024

/**
 * The whole body, or 413 once it passes `limit`: after reading and dropping the rest of it,
 * up to `DISCARDED_BODY_BYTES` in all (at once when its declared length passes that too), so
 * that the client has sent it all when the answer comes and the connection closes; 400 when
 * the client goes away before the end.
 */
function readBody(req: IncomingMessage, declared: string | null, limit: number) {
  if (declared !== null && Number(declared) > limit) {
    const tooLarge = new TooLargeError(limit)
    if (Number(declared) > DISCARDED_BODY_BYTES) return Promise.reject(tooLarge)
    return discard(req, 0).then(() => Promise.reject(tooLarge))
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
        chunks.length = 0
        void discard(req, size).then(() => reject(new TooLargeError(limit)))
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

/**
 * How long a client may send nothing while the rest of a refused body is read: past it, it is
 * answered (its connection closed after), as nginx's lingering close stops waiting.
 */
export const DISCARD_IDLE_MS = 1000

/**
 * Reads and drops what the client still sends of its body, `read` bytes of it read already:
 * resolves at its end, once `DISCARDED_BODY_BYTES` have been read in all, once the client has
 * sent nothing for `DISCARD_IDLE_MS` (the rest is left unread then, and the connection closes
 * after the answer), or when the client goes away.
 */
function discard(req: IncomingMessage, read: number): Promise<void> {
  return new Promise((resolve) => {
    if (req.readableEnded || req.destroyed) return resolve()
    let size = read
    const done = () => {
      clearTimeout(idle)
      req.off('data', onData)
      req.off('end', done)
      req.off('error', done)
      req.off('close', done)
      req.pause()
      resolve()
    }
    const idle = setTimeout(done, DISCARD_IDLE_MS)
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength
      if (size > DISCARDED_BODY_BYTES) done()
      else idle.refresh()
    }
    req.on('data', onData)
    req.on('end', done)
    req.on('error', done)
    req.on('close', done)
    req.resume()
  })
}
