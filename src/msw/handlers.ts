import { http, type HttpHandler } from 'msw'
import type { Engine } from '../engine'

/**
 * MSW handlers that answer every request to the engine's base URL (and below it) with
 * `engine.handle`. Environment-free: the same list serves `setupWorker` and `setupServer`.
 */
export function createHandlers(engine: Pick<Engine, 'handle' | 'settings'>): HttpHandler[] {
  const { baseUrl } = engine.settings
  const forward = ({ request }: { request: Request }) => engine.handle(request)
  return [http.all(baseUrl, forward), http.all(`${baseUrl}/*`, forward)]
}
