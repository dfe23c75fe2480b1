import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { TooLargeError } from '../engine/errors'
import { refusal } from '../engine/wire/response'
import { checkHost, hostsOf } from '../server/gate'
import { nodeCall } from '../server/node-call'
import { writeReply } from '../server/write-reply'
import type { Listener } from '../server/http'
import type { Shadow } from './shadow'
import { UpstreamError, type UpstreamStream } from './upstream'

/** The largest body the shadow reads to pass on (the service itself refuses far less). */
export const SHADOW_MAX_BODY_BYTES = 16 * 1024 * 1024

export interface ShadowListenOptions {
  /** 0 picks a free port. */
  port: number
  /** Default `127.0.0.1`. */
  host?: string
  /** Names besides the loopback ones the `Host` header may give. */
  allowedHosts?: string[]
}

/**
 * Serves the shadow over `node:http`: each request read whole, passed to the upstream through
 * `shadow.pass`, and its answer written back as it comes — status, headers (but those about
 * the connection), body byte for byte, a piece at a time as the client takes it, never held
 * whole. When the upstream gives no answer, or breaks it off, the client's connection is
 * closed too: it meets what it would have met; when the client goes away, the upstream's
 * answer is let go.
 */
export async function listenShadow(
  shadow: Shadow,
  { port, host = '127.0.0.1', allowedHosts = [] }: ShadowListenOptions,
): Promise<Listener> {
  const foreign = checkHost({ host, allowedHosts })
  const server = createServer((req, res) => {
    const call = nodeCall(req)
    const refused = call
      ? foreign(hostsOf(req.rawHeaders))
      : refusal(400, `the request target \`${req.url}' is not a URL this server reads`)
    if (refused || !call) return writeReply(req, res, refused!)
    void (async () => {
      let body: Uint8Array
      try {
        body = await call.body(SHADOW_MAX_BODY_BYTES)
      } catch (error) {
        if (error instanceof TooLargeError) {
          return writeReply(
            req,
            res,
            refusal(413, `the shadow passes on bodies of at most ${SHADOW_MAX_BODY_BYTES} bytes`),
          )
        }
        return void req.socket.destroy()
      }
      const headers: Array<[string, string]> = []
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        headers.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!])
      }
      let answer: UpstreamStream
      try {
        answer = await shadow.pass({
          method: call.method,
          pathname: call.pathname,
          search: call.search,
          headers,
          body,
        })
      } catch (error) {
        if (!(error instanceof UpstreamError)) console.error('shadow fault:', error)
        return void req.socket.destroy()
      }
      // The client went away: the upstream's answer is let go.
      if (res.destroyed) return answer.cancel()
      res.once('close', () => {
        if (!res.writableFinished) answer.cancel()
      })
      // Passed on as it comes: a length when the upstream gave one, else chunked.
      res.writeHead(answer.status, answer.statusMessage, answer.headers.flat())
      try {
        for await (const piece of answer.body) {
          if (!res.write(piece) && !(await drained(res))) return answer.cancel()
        }
        res.end()
      } catch (error) {
        // The upstream broke its answer off: the client meets the same.
        if (!(error instanceof UpstreamError)) console.error('shadow fault:', error)
        req.socket.destroy()
      }
    })()
  })
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
