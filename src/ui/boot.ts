import { createElement, StrictMode, type ReactElement } from 'react'
import { createRoot } from 'react-dom/client'
import { askWorker } from '../msw/ask-worker'
import { gateFetch } from '../msw/fetch-gate'
import { App, StartupError } from './app'
import { engineFailed, reportEngine } from './engine-status'
import { databaseName, parseConfig, type PlaygroundConfig } from './shared/config'
import { afterPaint } from './shared/after-paint'
import { messageOf } from './shared/format'
import { MAX_ENGINE_LOG } from './shared/page-store'
import { parseRoute, stepLinkValueOf } from './shared/router'
import { thisTab } from './shared/sync'
import { warmCodeCache } from './code-cache'
import { Starting } from './starting'
import { prefetchView, preloadView } from './views'

/**
 * Starts the playground in `container`: reads the configuration from the page URL, paints a
 * starting screen, and meanwhile loads the view the URL names. It renders the playground as soon
 * as that view's code is here, and starts the page's service (the engine over its IndexedDB
 * store and the service worker, `src/msw/playground.ts`) once that first view is painted
 * (decision 116): whatever the page sends to the base URL waits for it (`gateFetch`). Once the
 * service answers it sets `data-ready="true"` on the root element; a configuration or startup
 * failure is shown instead.
 * A page opened on a step's link (`#r=…`) shows the link at once instead, replayed in the page,
 * and the playground once a view is chosen (decision 106).
 * The marks `playground:…` (User Timing) say where the first screen's time goes.
 */
export async function boot(container: HTMLElement, location: Location): Promise<void> {
  performance.mark('playground:boot')
  const root = createRoot(container)
  const render = (element: ReactElement) => root.render(createElement(StrictMode, null, element))
  const parsed = parseConfig(location.search, location.origin)
  if (!parsed.ok) return render(createElement(StartupError, { message: parsed.error }))
  const { config } = parsed
  document.title = `${config.serviceName} playground`
  // No worker served this visit's scripts: a first visit, or a hard reload.
  followShell(!navigator.serviceWorker?.controller && import.meta.env.PROD)
  // A step's link is shown first, on its own (decision 106): the service starts once the step
  // is on screen, not competing with its replay; the playground comes once the fragment leaves
  // the link.
  const link = stepLinkValueOf(location.hash)
  const shown = link === null ? null : whenShown()
  // Otherwise it starts once the first view is painted (decision 116): the account's database,
  // the engine and the worker would compete with the view's code and first render.
  const painted = deferred()
  const started = (shown ?? painted).promise.then(() => startService(config))
  // Nothing the page sends to the base URL leaves before its service answers (decision 111).
  gateFetch(window, config.baseUrl, started)
  render(createElement(Starting, { config }))
  const ready = once(() => {
    reloadOnNewWorker()
    document.documentElement.dataset.ready = 'true'
  })
  if (link !== null && (await showLink(config, link, started, shown!.resolve, render))) {
    started.then(ready, () => undefined)
    await leftTheLink()
  }
  // A view whose chunk fails to load says so in its place, with a way to try again.
  const view = preloadView(parseRoute(window.location.hash).view).then(
    () => performance.mark('playground:view loaded'),
    () => undefined,
  )
  // The views are shown as soon as the first one's code is here, while the service may still be
  // starting: whatever they send to the base URL waits for it in the gate, so a click on
  // "Create secret" then is answered once the engine answers (decision 115).
  let failed = false
  started.catch(() => (failed = true))
  await view
  if (!failed) {
    render(createElement(App, { config }))
    afterPaint(painted.resolve, SERVICE_AFTER_PAINT_MS)
    // The exchange log's code, once the first screen is painted (its newest rows are read then
    // too: `ExchangeLogFollower`): opening it then waits for neither. Any other view's code
    // loads when its link is pointed at or focused (`ViewsNav`).
    afterPaint(() => prefetchView('log'), LOG_CODE_MS)
  } else {
    painted.resolve()
  }
  try {
    await started
  } catch (error) {
    return render(
      createElement(StartupError, {
        message: `The playground could not start: ${messageOf(error)}`,
      }),
    )
  }
  ready()
}

/** The longest the log's code waits for the first screen to be painted. */
const LOG_CODE_MS = 300

/** The longest the service waits for the first screen to be painted (a background tab paints none). */
const SERVICE_AFTER_PAINT_MS = 100

/**
 * Renders the page a step's link opens (`LinkPage`), which replays it in this page and needs
 * nothing of the service `started` starts; it calls `onShown` once the step is on screen.
 * `false` when its code cannot be loaded (the playground then shows the link as any view, once
 * it has started).
 */
async function showLink(
  config: PlaygroundConfig,
  value: string,
  started: Promise<void>,
  onShown: () => void,
  render: (element: ReactElement) => void,
): Promise<boolean> {
  try {
    const { LinkPage } = await import('./link/link-page')
    performance.mark('playground:link page loaded')
    render(createElement(LinkPage, { config, value, started, onShown }))
    return true
  } catch {
    onShown()
    return false
  }
}

/** How long the service waits for a link's step to be shown before it starts all the same. */
const SHOWN_WAIT_MS = 10_000

/** A promise and the function that resolves it (at most once). */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void
  const promise = new Promise<void>((done) => (resolve = done))
  return { promise, resolve }
}

/** Resolved when the link's step is on screen (or said why not), or after `SHOWN_WAIT_MS`. */
function whenShown(): { promise: Promise<void>; resolve: () => void } {
  const shown = deferred()
  setTimeout(shown.resolve, SHOWN_WAIT_MS)
  return shown
}

/** Resolves once the fragment no longer holds a step's link (a view was chosen). */
function leftTheLink(): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (stepLinkValueOf(window.location.hash) !== null) return
      window.removeEventListener('hashchange', check)
      resolve()
    }
    window.addEventListener('hashchange', check)
  })
}

/** `run`, called at most once however often the answer is called. */
function once(run: () => void): () => void {
  let done = false
  return () => {
    if (done) return
    done = true
    run()
  }
}

/**
 * Loads the page's service and starts it: the engine in this page, answering the base URL
 * through the service worker. The store tells the other tabs of this configuration of each
 * commit (`useAccountSync`).
 */
async function startService(config: PlaygroundConfig): Promise<void> {
  const { startPlaygroundService } = await import('../msw/playground')
  performance.mark('playground:service loaded')
  await startPlaygroundService({
    serviceName: config.serviceName,
    baseUrl: config.baseUrl,
    database: databaseName(config),
    tab: thisTab,
    // The page's exchange log: every request answered here, with its decision trace.
    exchangeLog: MAX_ENGINE_LOG,
    onRestart: (outcome, error) =>
      reportEngine(
        outcome === 'restarted' ? { kind: 'restarted', at: Date.now() } : engineFailed(error),
      ),
    onNotRunning: () => reportEngine({ kind: 'not-running', at: Date.now() }),
  })
}

/**
 * The service worker caches the app shell once the engine answers, and says so: from then on
 * the next visit opens with no network (`data-offline="ready"` on the root element). When this
 * visit's scripts came from the network (`fromNetwork`), they are then run once from the
 * worker's cache, so that the next visit starts from their compiled code (`warmCodeCache`).
 */
function followShell(fromNetwork: boolean): void {
  let warmed = false
  navigator.serviceWorker?.addEventListener('message', (event: MessageEvent<unknown>) => {
    if ((event.data as { type?: unknown } | null)?.type !== 'SHELL_CACHED') return
    document.documentElement.dataset.offline = 'ready'
    if (fromNetwork && !warmed) {
      warmed = true
      warmCodeCache()
    }
  })
}

/**
 * A new build's worker takes over open tabs at once (MSW's worker skips waiting), but this page
 * runs the old build's code: reload, so the page starts again on the new one. Its account lives
 * in IndexedDB, so nothing but unsent input is lost. A worker of the same build that takes the
 * page (the browser found other bytes at the same address) is not a reason to: the worker asks
 * this page's engine again when it needs it (`ENGINE_NEEDED`, src/msw/browser.ts).
 */
function reloadOnNewWorker(): void {
  const container = navigator.serviceWorker
  let build = buildOf(container.controller)
  container.addEventListener('controllerchange', () => {
    const was = build
    build = buildOf(container.controller)
    void Promise.all([was, build]).then(([before, now]) => {
      if (before !== null && before !== now) window.location.reload()
    })
  })
}

/** How long the page waits for a worker to name its build. */
const SHELL_VERSION_MS = 2_000

/**
 * The build `worker` serves (`SHELL_VERSION`, public/app-worker.js); `null` for no worker, and
 * a value no build has for a worker that does not say (an older build's).
 */
async function buildOf(worker: ServiceWorker | null): Promise<string | null> {
  if (!worker) return null
  const answer = await askWorker(worker, { type: 'SHELL_VERSION' }, SHELL_VERSION_MS)
  const version = (answer as { version?: unknown } | undefined)?.version
  return typeof version === 'string' ? version : `unknown ${worker.scriptURL}`
}
