import type { Engine } from '../engine'
import { TooLargeError } from '../engine/errors'
import { UpstreamError, type Upstream } from '../shadow/upstream'
import { trimBaseUrl } from '../client/wire'

/**
 * An engine in this process as the shadow's upstream: where a test's point is the comparison,
 * not the wire, the "real service" is a second engine (with a changed rule, or not), answered
 * through its one door with no HTTP between.
 */
export function engineUpstream(engine: Engine): Upstream {
  const baseUrl = engine.settings.baseUrl
  const { origin, pathname } = new URL(baseUrl)
  const basePath = trimBaseUrl(pathname)
  return {
    baseUrl,
    close: () => undefined,
    async send(request) {
      const headers = new Map<string, string>()
      for (const [name, value] of request.headers) {
        const key = name.toLowerCase()
        const seen = headers.get(key)
        headers.set(key, seen === undefined ? value : `${seen}, ${value}`)
      }
      const reply = await engine.answer({
        method: request.method,
        origin,
        pathname: `${basePath}${request.pathname}`,
        search: request.search,
        header: (name) => headers.get(name) ?? null,
        headers: () => headers,
        body: async (limit) => {
          if (request.body.length > limit) throw new TooLargeError(limit)
          return request.body
        },
      })
      if (reply.fault?.ending === 'drop')
        throw new UpstreamError('the upstream dropped the connection', 'ECONNRESET')
      const body =
        typeof reply.body === 'string' ? new TextEncoder().encode(reply.body) : reply.body
      return { status: reply.status, headers: Object.entries(reply.headers), body }
    },
  }
}
