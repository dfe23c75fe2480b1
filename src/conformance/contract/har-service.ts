import { headerOf } from '../../client/exchange'
import { bearerToken } from '../../client/wire'
import { pairs } from './har-entry'
import { HarError, type HarEntry } from './har-file'

/** The service's name, from the first request body in its media type: `service` if none. */
export function serviceNameOf(entries: HarEntry[]): string {
  for (const entry of entries) {
    const type = headerOf(pairs(entry.request.headers), 'content-type') ?? ''
    const named = /application\/vnd\.([a-z][a-z0-9_-]*)\+(json|msgpack)/i.exec(type)
    if (named) return named[1]!
  }
  return 'service'
}

/**
 * The service's base URL, when not given: the origin (and `/a/<id>` of an account hosted on
 * `serve`) of the first `POST` that sends a bearer token.
 */
export function baseUrlOf(file: string, entries: HarEntry[]): string {
  for (const entry of entries) {
    const headers = pairs(entry.request.headers)
    if (entry.request.method !== 'POST' || !bearerToken(headerOf(headers, 'authorization'))) {
      continue
    }
    try {
      const url = new URL(entry.request.url)
      const hosted = /^\/a\/[A-Za-z0-9_-]+(?=\/)/.exec(url.pathname)
      return `${url.origin}${hosted ? hosted[0] : ''}`
    } catch {
      continue
    }
  }
  throw new HarError(
    `${file}: no request in it sends a bearer token, so the service's base URL cannot be found: give --base-url URL`,
  )
}
