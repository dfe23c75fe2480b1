import type { HttpHandler } from 'msw'
import { setupWorker, type SetupWorker, type StartOptions } from 'msw/browser'
import type { Engine } from '../engine'
import { askWorker } from './ask-worker'
import { createHandlers } from './handlers'

export interface WorkerOptions extends StartOptions {
  /**
   * Called when the browser had stopped the service worker and this page started MSW's client
   * again (the worker asked, holding a request to the base URL): `restarted`, or `failed`.
   */
  onRestart?: (outcome: 'restarted' | 'failed', error?: unknown) => void
  /** Called when the worker gave up waiting and answered a request 503 itself. */
  onNotRunning?: () => void
  /** Handlers asked before the engine's own (below its base URL, they answer first). */
  before?: HttpHandler[]
}

/**
 * Starts the service worker that answers the engine's base URL in the browser; every other
 * request passes through. The worker is `public/app-worker.js`: the playground's offline app
 * shell, which loads MSW's worker into itself (a scope has one service worker), and holds any
 * request to the base URL until this page says its engine answers (`ENGINE_READY`). When the
 * browser stops the worker, it forgets that; it then asks again (`ENGINE_NEEDED`), and this
 * page starts MSW's client afresh. `options` override the defaults given to `worker.start`.
 */
export async function startWorker(
  engine: Engine,
  { onRestart, onNotRunning, before = [], ...options }: WorkerOptions = {},
): Promise<SetupWorker> {
  const worker = setupWorker(...before, ...createHandlers(engine))
  const start = async () => {
    const registration = await worker.start({
      onUnhandledRequest: 'bypass',
      quiet: true,
      serviceWorker: { url: '/app-worker.js' },
      ...options,
    })
    await engineReady(registration?.active, engine.settings.baseUrl)
  }
  await start()

  let restarting = false
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<unknown>) => {
    const type = (event.data as { type?: unknown } | null)?.type
    if (type === 'ENGINE_NOT_RUNNING') onNotRunning?.()
    if (type !== 'ENGINE_NEEDED' || restarting) return
    restarting = true
    worker.stop()
    start()
      .then(
        () => onRestart?.('restarted'),
        (error: unknown) => onRestart?.('failed', error),
      )
      .finally(() => (restarting = false))
  })
  return worker
}

/** How long the page waits for the worker to take `ENGINE_READY` in: a worker of an older build says nothing. */
const READY_TAKEN_MS = 2_000

/**
 * Tells the worker this page's engine answers, and resolves once the worker has taken that in
 * (it answers on the message's port): a request the page sends after it finds its engine known.
 * One sent before, which the browser may hand the worker ahead of the message, would make the
 * worker ask for the engine again (`ENGINE_NEEDED`) and the page restart MSW's client under
 * the requests it is answering.
 */
function engineReady(active: ServiceWorker | null | undefined, baseUrl: string): Promise<void> {
  if (!active) return Promise.resolve()
  return askWorker(active, { type: 'ENGINE_READY', baseUrl }, READY_TAKEN_MS).then(() => undefined)
}
