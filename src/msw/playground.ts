import { createEngine } from '../engine'
import { broadcastCommits, openIdbStore } from '../storage'
import { startWorker, type WorkerOptions } from './browser'
import { createReplayHandlers } from './replays'

export interface PlaygroundServiceOptions extends Pick<
  WorkerOptions,
  'onRestart' | 'onNotRunning'
> {
  serviceName: string
  baseUrl: string
  /** The IndexedDB database of the account; also the channel its commits are told on. */
  database: string
  /** This tab, as its commits name it to the other tabs. */
  tab: string
  /** How many exchanges the engine's log keeps (its `exchangeLog`). */
  exchangeLog: number
}

/**
 * The playground page's service: the engine over the configuration's IndexedDB database,
 * started as `serve` and the kit start theirs (the account gets a secret if it has none, and a
 * reset brings back the secrets it started with), the throwaway accounts contracts replay on,
 * and the service worker answering both at the base URL. The page's views reach all of it over
 * `fetch` only.
 */
export async function startPlaygroundService(options: PlaygroundServiceOptions): Promise<void> {
  const { serviceName, baseUrl, database, tab, exchangeLog } = options
  const [store] = await Promise.all([
    openIdbStore(database).then((opened) => broadcastCommits(opened, database, tab)),
    controlled(),
  ])
  performance.mark('playground:store open')
  const engine = createEngine({ store, serviceName, baseUrl, exchangeLog })
  // Nothing in the page calls the base URL before this resolves: both run at once.
  await Promise.all([
    engine.start().then(() => performance.mark('playground:engine started')),
    startWorker(engine, {
      before: createReplayHandlers({ baseUrl, serviceName, exchangeLog }),
      ...(options.onRestart ? { onRestart: options.onRestart } : {}),
      ...(options.onNotRunning ? { onNotRunning: options.onNotRunning } : {}),
    }).then(() => performance.mark('playground:worker started')),
  ])
}

/** How long the page waits for the worker index.html registered before MSW takes over. */
const INSTALL_WAIT_MS = 10_000

/**
 * Resolves once a worker the page registered early (index.html) controls the page. MSW, started
 * while a registration exists but the page is not controlled, reloads the page; a worker still
 * installing is waited for (it takes the page when it activates). Anything else, MSW handles:
 * no registration (it registers), an active worker that does not control this page (a hard
 * reload), a worker that failed to install.
 */
async function controlled(): Promise<void> {
  const container = navigator.serviceWorker
  if (!container || container.controller) return
  const registration = await container.getRegistration()
  const pending = registration?.installing ?? registration?.waiting
  if (!pending) return
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer)
      resolve()
    }
    const timer = setTimeout(done, INSTALL_WAIT_MS)
    container.addEventListener('controllerchange', done, { once: true })
    pending.addEventListener('statechange', () => pending.state === 'redundant' && done())
  })
}
