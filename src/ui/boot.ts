import { createElement, StrictMode, type ReactElement } from 'react'
import { createRoot } from 'react-dom/client'
import { App, StartupError } from './app'
import { engineFailed, reportEngine } from './engine-status'
import { databaseName, parseConfig, type PlaygroundConfig } from './shared/config'
import { messageOf } from './shared/format'
import { thisTab } from './shared/sync'
import { Starting } from './starting'

/**
 * Starts the playground in `container`: reads the configuration from the page URL, paints a
 * starting screen, and meanwhile loads the engine, its IndexedDB store and the service worker
 * (separate chunks, fetched in parallel) and starts the worker over the engine. Only then does
 * it render the playground, so no request can leave before the worker answers the base URL.
 * Once the worker is active it sets `data-ready="true"` on the root element; a configuration
 * or startup failure is shown instead.
 */
export async function boot(container: HTMLElement, location: Location): Promise<void> {
  const root = createRoot(container)
  const render = (element: ReactElement) => root.render(createElement(StrictMode, null, element))
  const parsed = parseConfig(location.search, location.origin)
  if (!parsed.ok) return render(createElement(StartupError, { message: parsed.error }))
  const { config } = parsed
  document.title = `${config.serviceName} playground`
  const started = startService(config)
  render(createElement(Starting, { config }))
  try {
    await started
  } catch (error) {
    return render(
      createElement(StartupError, {
        message: `The playground could not start: ${messageOf(error)}`,
      }),
    )
  }
  reloadOnNewWorker()
  document.documentElement.dataset.ready = 'true'
  render(createElement(App, { config }))
}

/**
 * Loads the engine, storage and msw chunks at once and starts the worker over the engine. The
 * store tells the other tabs of this configuration of each commit (`useAccountSync`).
 */
async function startService(config: PlaygroundConfig): Promise<void> {
  const [{ createEngine }, store, { startWorker }] = await Promise.all([
    import('../engine'),
    import('../storage').then(async ({ openIdbStore, broadcastCommits }) => {
      const name = databaseName(config)
      return broadcastCommits(await openIdbStore(name), name, thisTab)
    }),
    import('../msw/browser'),
  ])
  const engine = createEngine({
    store,
    serviceName: config.serviceName,
    baseUrl: config.baseUrl,
    // The page's exchange log: every request answered here, with its decision trace.
    exchangeLog: 500,
  })
  await startWorker(engine, {
    onRestart: (outcome, error) =>
      reportEngine(
        outcome === 'restarted' ? { kind: 'restarted', at: Date.now() } : engineFailed(error),
      ),
    onNotRunning: () => reportEngine({ kind: 'not-running', at: Date.now() }),
  })
}

/**
 * A new build's worker takes over open tabs at once (MSW's worker skips waiting), but MSW in
 * this page keeps talking to the worker it started with: reload, so the page starts again on
 * the new one. Its account lives in IndexedDB, so nothing but unsent input is lost.
 */
function reloadOnNewWorker(): void {
  let controller = navigator.serviceWorker.controller
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (controller) window.location.reload()
    controller = navigator.serviceWorker.controller
  })
}
