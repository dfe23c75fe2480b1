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
    })
      .then(claimed)
      .then(() => performance.mark('playground:worker started')),
  ])
}

/** How long the page waits for a worker to take it (install, or claim once MSW started). */
const INSTALL_WAIT_MS = 10_000

/** How long the page waits for an active worker it asked to claim it. */
const CLAIM_WAIT_MS = 3_000

/**
 * Resolves once a worker the page registered early (index.html) controls the page. MSW, started
 * while a registration exists but the page is not controlled, reloads the page; a worker still
 * installing or activating is waited for (it takes the page when it activates). An activated
 * worker that does not control this page (its claim came before the page could be claimed, on a
 * slow first visit; or a hard reload) is asked to claim it (`CLAIM`, public/app-worker.js).
 * Anything else, MSW handles: no registration (it registers), a worker that failed to install,
 * a claim that did not come.
 */
async function controlled(): Promise<void> {
  const container = navigator.serviceWorker
  if (!container || container.controller) return
  const registration = await container.getRegistration()
  const active = registration?.active ?? null
  const activating = active?.state === 'activating' ? active : null
  const pending = registration?.installing ?? registration?.waiting ?? activating
  if (!pending && active?.state !== 'activated') return
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer)
      resolve()
    }
    const timer = setTimeout(done, pending ? INSTALL_WAIT_MS : CLAIM_WAIT_MS)
    container.addEventListener('controllerchange', done, { once: true })
    if (pending) {
      pending.addEventListener('statechange', () => pending.state === 'redundant' && done())
    } else {
      active!.postMessage({ type: 'CLAIM' })
    }
  })
}

/**
 * Resolves once a worker controls the page. MSW's start resolves when its worker is active,
 * which on a first visit can come before the worker's `clients.claim()` reaches this page: a
 * request sent in between would leave for the network instead of the engine. A page that stays
 * uncontrolled (a hard reload) is MSW's to handle; after the wait it goes on as before.
 */
async function claimed(): Promise<void> {
  const container = navigator.serviceWorker
  if (!container || container.controller) return
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, INSTALL_WAIT_MS)
    container.addEventListener(
      'controllerchange',
      () => {
        clearTimeout(timer)
        resolve()
      },
      { once: true },
    )
  })
}
