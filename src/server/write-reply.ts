import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Reply } from '../engine'

/**
 * Writes a reply on `node:http`'s response, doing what its fault says: wait (ended early when
 * the client goes away), then drop the connection with no answer, or send the status, the
 * headers and what the body holds and then drop it, or answer.
 */
export function writeReply(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  const { fault } = reply
  if (!fault || (fault.delayMs <= 0 && fault.ending === 'answer')) return write(res, reply)
  const end = () => {
    if (res.destroyed) return
    if (fault.ending === 'drop') return void req.socket.destroy()
    if (fault.ending === 'answer') return write(res, reply)
    // No length: the body is sent as it comes, and the connection drops before its end.
    res.writeHead(reply.status, reply.headers)
    res.write(reply.body)
    setImmediate(() => req.socket.destroy())
  }
  if (fault.delayMs <= 0) return end()
  const timer = setTimeout(end, fault.delayMs)
  res.once('close', () => clearTimeout(timer))
}

/** Statuses whose answer has no body, nor a length. */
const NO_BODY = new Set([204, 304])

function write(res: ServerResponse, { status, headers, body }: Reply): void {
  if (res.destroyed) return
  // Whatever the client still sends after a 413 would be read as the next request: close.
  if (status === 413) headers.connection = 'close'
  if (NO_BODY.has(status)) {
    res.writeHead(status, headers)
    res.end()
    return
  }
  headers['content-length'] = String(
    typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength,
  )
  res.writeHead(status, headers)
  res.end(body)
}
