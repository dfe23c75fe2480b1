/**
 * Vitest setup for the `fetch` project: the engine suites run again, every request going
 * through msw's `setupServer` and the real global `fetch`, as a client's would.
 */
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { TRANSPORT, type Transport } from './engine-harness'
import { createHandlers } from '../msw/handlers'

const server = setupServer()

const throughFetch: Transport = (engine) => {
  server.use(...createHandlers(engine))
  return (request) => fetch(request)
}

;(globalThis as { [TRANSPORT]?: Transport })[TRANSPORT] = throughFetch

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())
