import type { HttpHandler } from 'msw'
import { setupServer, type SetupServer } from 'msw/node'

/**
 * msw 2.15 intercepts through one network source per process: a second
 * `setupServer().listen()` takes over from the first, and any `close()` stops both. So the
 * services started without a server of their own share this one, listening while any runs.
 * Their handlers are its initial handlers, so `server.resetHandlers()` keeps them.
 */
const server = setupServer()
const joined = new Set<HttpHandler[]>()

/** Adds a service's handlers to the shared server, and starts it for the first one. */
export function joinSharedServer(handlers: HttpHandler[]): SetupServer {
  if (joined.size === 0) server.listen({ onUnhandledRequest: 'bypass' })
  joined.add(handlers)
  server.resetHandlers(...[...joined].flat())
  return server
}

/** Removes a service's handlers, and closes the server after the last one. */
export function leaveSharedServer(handlers: HttpHandler[]): void {
  if (!joined.delete(handlers)) return
  server.resetHandlers(...[...joined].flat())
  if (joined.size === 0) server.close()
}
