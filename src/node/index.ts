import type { HttpHandler } from 'msw'
import type { SetupServer } from 'msw/node'
import {
  createEngine,
  defaultLimits,
  type Clock,
  type Engine,
  type FaultOptions,
  type Limits,
  type Store,
} from '../engine'
import { readFaultRule } from '../engine/operator/faults'
import { createLocalOperator } from '../engine/operator/local'
import { createHandlers } from '../msw/handlers'
import { createMemoryStore } from '../storage/memory-store'
import { DEFAULT_JOURNAL, describeExchange, matches } from '../client/journal'
import { authorizeThrough } from '../client/authorize'
import type { ServiceControls } from '../client/service-controls'
import { nodeHmac } from './hmac'
import { joinSharedServer, leaveSharedServer } from './shared-server'

export { listen, type Listener, type ListenOptions } from '../server/http'
export { authorizeThrough, type AuthorizeOptions } from '../client/authorize'
export type { Held, ServiceControls } from '../client/service-controls'
export { openAccount, type ServeAccount } from '../client/open-account'
export {
  runServe,
  spawnServe,
  type RunningServe,
  type RunServeOptions,
  type ServeProcess,
} from '../serve/spawn-serve'
export {
  checkReceived,
  DEFAULT_JOURNAL,
  describeExchange,
  matches,
  type ReceivedExpectation,
  type ReceivedRequest,
  type RequestFilter,
} from '../client/journal'

export interface StartServiceOptions {
  /** Where the service answers; default `https://api.service.test`. A path prefix is allowed. */
  baseUrl?: string
  /** The service's own name (content type, error wording); default `service`. */
  serviceName?: string
  /** Secret keys the account has from the start (and again after `reset()`); one is made if none. */
  secrets?: string[]
  /** Default: the system clock; pass `createManualClock()` to control time completely. */
  clock?: Clock
  /** Default: a fresh in-memory store. */
  store?: Store
  limits?: Partial<Limits>
  /** Start in strict mode (see `docs/node-api.md`); `reset()` comes back to it. */
  strict?: boolean
  /** Keep the last this many requests for `requests()`; default 1000, 0 keeps none. */
  journal?: number
  /**
   * Your own msw server, if your tests have one: the service's handlers are added to it with
   * `server.use` (so your `server.resetHandlers()` removes them). Pass it: msw intercepts
   * through one server per process, and the latest to `listen` takes over.
   */
  server?: SetupServer
}

/** What a fault does: see `docs/node-api.md`. Without `kind`, a `status` answers in place. */
export type { FaultOptions }

/** A running service in this process and its account settings (see `ServiceControls`). */
export interface Service extends ServiceControls<true> {
  engine: Engine
  /** The msw server answering `baseUrl`: the one you passed, or one shared by our services. */
  server: SetupServer
  /** Every secret key the service started with (the first is `secret`). */
  secrets: string[]
  /** Empties the journal of requests. */
  clearRequests(): void
  /** The msw handlers, to put in a server of your own. */
  handlers: HttpHandler[]
  /** Stops answering `baseUrl`; a server you passed is left running, with our handlers. */
  stop(): void
}

/**
 * Starts the whole service in this process, answered through msw at `baseUrl`: `fetch` (and
 * any client built on it) reaches it, every other request goes to the network.
 */
export async function startService(options: StartServiceOptions = {}): Promise<Service> {
  const {
    secrets,
    server: given,
    store = createMemoryStore(),
    journal = DEFAULT_JOURNAL,
    ...settings
  } = options
  // Kept in this process, so that faults and the journal answer at once.
  const operator = createLocalOperator({
    strict: settings.strict ?? false,
    journal,
    rateLimit: { ...defaultLimits.rateLimit, ...settings.limits?.rateLimit },
  })
  const engine = createEngine({
    hmac: nodeHmac,
    ...settings,
    store,
    exchangeLog: journal,
    operator,
    ...(secrets && secrets.length > 0 ? { secrets } : {}),
  })
  const { account } = engine
  const { faults, journal: kept } = operator.here
  const keys = await engine.start()
  const handlers = createHandlers(engine)
  const server = given ?? joinSharedServer(handlers)
  given?.use(...handlers)
  const { baseUrl, serviceName } = engine.settings

  return {
    baseUrl,
    serviceName,
    engine,
    server,
    secret: keys[0]!,
    secrets: keys,
    authorize: (abilities, authorizeOptions) =>
      authorizeThrough(
        engine.handle,
        { baseUrl, serviceName, token: keys[0]! },
        abilities,
        authorizeOptions,
      ),
    createSecret: (key) => account.createSecret(key === undefined ? {} : { key }),
    rollSecret: (id, at) => account.rollSecret(id, at === undefined ? {} : { at }),
    listSecrets: () => account.listSecrets(),
    advanceClock: (seconds) => account.advanceClock(seconds),
    now: () => account.now(),
    // The same checks the control plane makes of a rule.
    fault: (rule) => faults.add(readFaultRule({ ...rule })),
    clearFaults: (id) => (id === undefined ? faults.clear() : faults.remove(id)),
    requests: (filter) => {
      const all = kept.list().reverse().map(describeExchange)
      return filter ? all.filter((request) => matches(request, filter)) : all
    },
    clearRequests: () => kept.clear(),
    reach: (token, at) => engine.insight.reach(token, at),
    simulate: (token, calls, at) => engine.insight.simulate(token, calls, at),
    diff: (a, b, at) => engine.insight.diff(a, b, at),
    reset: () => engine.reset(),
    handlers,
    stop: () => {
      if (!given) leaveSharedServer(handlers)
    },
  }
}
