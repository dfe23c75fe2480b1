import { setupWorker, type SetupWorker, type StartOptions } from 'msw/browser'
import type { Engine } from '../engine'
import { createHandlers } from './handlers'

/**
 * Starts the service worker that answers the engine's base URL in the browser; every other
 * request passes through. The worker is `public/app-worker.js`: the playground's offline app
 * shell, which loads MSW's worker into itself (a scope has one service worker). `options`
 * override the defaults given to `worker.start`.
 */
export async function startWorker(
  engine: Engine,
  options: StartOptions = {},
): Promise<SetupWorker> {
  const worker = setupWorker(...createHandlers(engine))
  await worker.start({
    onUnhandledRequest: 'bypass',
    quiet: true,
    serviceWorker: { url: '/app-worker.js' },
    ...options,
  })
  return worker
}
