import { createElement, StrictMode, type ReactElement } from 'react'
import { createRoot } from 'react-dom/client'
import { createEngine } from '../engine'
import { startWorker } from '../msw/browser'
import { openIdbStore } from '../storage'
import { App, StartupError } from './app'
import { databaseName, parseConfig } from './config'
import { messageOf } from './format'

/**
 * Starts the playground in `container`: reads the configuration from the page URL, opens its
 * IndexedDB store, starts the service worker over the engine, and only then renders, so no
 * request can leave before the worker answers the base URL. Once the worker is active it sets
 * `data-ready="true"` on the root element; a configuration or startup failure is shown instead.
 */
export async function boot(container: HTMLElement, location: Location): Promise<void> {
  const root = createRoot(container)
  const render = (element: ReactElement) => root.render(createElement(StrictMode, null, element))
  const parsed = parseConfig(location.search, location.origin)
  if (!parsed.ok) return render(createElement(StartupError, { message: parsed.error }))
  const { config } = parsed
  document.title = `${config.serviceName} playground`
  try {
    const store = await openIdbStore(databaseName(config))
    const engine = createEngine({ store, serviceName: config.serviceName, baseUrl: config.baseUrl })
    await startWorker(engine)
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
