import type { HttpHandler } from 'msw'
import type { SetupServer } from 'msw/node'
import { AsyncLocalStorage } from 'node:async_hooks'
import {
  callOf,
  createEngine,
  createSystemClock,
  responseOf,
  defaultLimits,
  type Clock,
  type Engine,
  type FaultOptions,
  type LocalOperator,
  type Limits,
  type Store,
} from '../engine'
import { readFaultRule, type FaultPlanner } from '../engine/operator/faults'
import { realTime } from '../engine/real-time'
import { createLocalOperator } from '../engine/operator/local'
import { createHandlers } from '../msw/handlers'
import { createMemoryStore } from '../storage/memory-store'
import { checkFilter, DEFAULT_JOURNAL, describeExchange, matches } from '../client/journal'
import { authorizeThrough } from '../client/authorize'
import { controlClient } from '../client/control'
import { exchangeId, respondRule, type ServiceControls } from '../client/service-controls'
import { checkDuration, checkMoment } from '../client/times'
import { checkOptions, checkSecrets } from '../client/options'
import { callsInFlight, trackInFlight } from './calls-in-flight'
import { nodeHmac } from '../server/node-hmac'
import { joinSharedServer, leaveSharedServer } from './shared-server'

export { checkOptions } from '../client/options'
export { listen, type Listener, type ListenOptions } from '../server/http'
export { authorizeThrough, type AuthorizeOptions } from '../client/authorize'
export type { Held, RespondOptions, ServiceControls } from '../client/service-controls'
export { openAccount, type ServeAccount } from '../client/open-account'
export {
  runServe,
  spawnServe,
  type RunningServe,
  type RunServeOptions,
  type ServeProcess,
} from '../server/spawn-serve'
export {
  DEFAULT_JOURNAL,
  describeExchange,
  matches,
  type ReceivedRequest,
  type RequestFilter,
} from '../client/journal'
export { checkReceived, type ReceivedExpectation } from '../client/received-check'

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
  /**
   * Keep the last this many requests for `requests()`, and the account's history with them
   * (`rewind`); default 1000, 0 keeps none.
   */
  journal?: number
  /**
   * Makes the account deterministic (decision 086): every value it draws comes from a generator
   * keyed by this seed and its own signing key, and its clock stands still (moved only with
   * `advanceClock`), so the same requests on the same starting state answer the same bytes.
   */
  seed?: string | number
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
  /**
   * Sets the planner asked for the fault of every call no rule meets (`null`: none): what a
   * seeded chaos run injects through (decision 091). Not kept in a frame: clear it yourself.
   */
  plan(planner: FaultPlanner | null): void
  /**
   * Wraps `fn` so that, while it runs, this service answers it alone from a copy of the service
   * as it stood when the wrapped function was called: its requests, and every method of this
   * object called from inside it, reach the copy; other code running at the same time (a
   * concurrent test) does not see it, and it sees nothing of theirs. The copy is dropped when
   * `fn` ends. As msw's `server.boundary`: `it.concurrent('…', service.isolated(async () => …))`.
   */
  isolated<Args extends unknown[], R>(
    fn: (...args: Args) => R,
  ): (...args: Args) => Promise<Awaited<R>>
  /** The msw handlers, to put in a server of your own. */
  handlers: HttpHandler[]
  /** Stops answering `baseUrl`; a server you passed is left running, with our handlers. */
  stop(): void
}

/** The options `startService` takes: anything else is refused, naming these. */
export const START_SERVICE_OPTIONS: ReadonlySet<string> = new Set([
  'baseUrl',
  'serviceName',
  'secrets',
  'clock',
  'store',
  'limits',
  'strict',
  'journal',
  'server',
  'seed',
] satisfies Array<keyof StartServiceOptions>)

/** The base URLs answered by a service in this process, to refuse a second one. */
const answering = new Set<string>()

/** One engine with its in-process operator: the root service, or a copy made by `isolated`. */
interface Bound {
  engine: Engine
  here: LocalOperator['here']
}

/**
 * Starts the whole service in this process, answered through msw at `baseUrl`: `fetch` (and
 * any client built on it) reaches it, every other request goes to the network.
 */
export async function startService(options: StartServiceOptions = {}): Promise<Service> {
  return (await start(options, true)) as Service
}

/**
 * The service `startService` starts, answered only where its caller sends requests to
 * `engine.handle` (a Playwright page's `context.route`), never through msw: it may stand beside
 * a service that answers the same `baseUrl` in this process. Its `server` is none.
 */
export async function startUnrouted(options: StartServiceOptions = {}): Promise<UnroutedService> {
  return start(options, false)
}

/** A service answered by whoever calls its engine: no msw server. */
export type UnroutedService = Omit<Service, 'server'>

async function start(options: StartServiceOptions, throughMsw: boolean): Promise<UnroutedService> {
  checkOptions('startService', options, START_SERVICE_OPTIONS)
  checkSecrets('startService', options.secrets)
  const {
    secrets,
    server: given,
    store = createMemoryStore(),
    journal = DEFAULT_JOURNAL,
    ...settings
  } = options
  const modes = {
    strict: settings.strict ?? false,
    journal,
    rateLimit: { ...defaultLimits.rateLimit, ...settings.limits?.rateLimit },
  }
  // Kept in this process, so that faults and the journal answer at once.
  const operator = createLocalOperator(modes)
  const engine = createEngine({
    hmac: nodeHmac,
    ...settings,
    store,
    exchangeLog: journal,
    operator,
    ...(secrets && secrets.length > 0 ? { secrets } : {}),
  })
  const { baseUrl, serviceName } = engine.settings
  if (throughMsw && answering.has(baseUrl)) {
    throw new Error(
      `startService: a service already answers ${baseUrl} in this process; stop it first (service.stop()), or give this one another baseUrl`,
    )
  }
  const keys = await engine.start()
  const root: Bound = { engine, here: operator.here }
  const scope = new AsyncLocalStorage<Bound>()
  const current = () => scope.getStore() ?? root
  const inFlight = callsInFlight()
  const handlers = createHandlers({
    settings: engine.settings,
    handle: async (request) => {
      const bound = current()
      // The root's calls are tracked: a copy's writes go with the copy.
      if (bound !== root) return bound.engine.handle(request)
      const call = callOf(request)
      const answered = bound.engine.answer(call)
      const route = bound.engine.route(new URL(request.url).pathname)
      inFlight.track(route.kind === 'call' ? route.path.replaceAll('/', '.') : route.kind, answered)
      return responseOf(await answered, request.signal)
    },
  })
  const server = throughMsw ? (given ?? joinSharedServer(handlers)) : undefined
  if (throughMsw) {
    answering.add(baseUrl)
    given?.use(...handlers)
  }

  /** A copy of the service as it stands now, in memory, on a clock of its own. */
  async function copy(): Promise<Bound> {
    const from = current().engine
    const state = await from.checkpoints.capture()
    const clock = from.settings.clock
    const forkOperator = createLocalOperator(modes)
    const forked = createEngine({
      hmac: nodeHmac,
      ...settings,
      clock: clock.fork?.() ?? createSystemClock(clock.now() - realTime.now()),
      store: createMemoryStore(),
      exchangeLog: journal,
      operator: forkOperator,
      secrets: keys,
    })
    await forked.checkpoints.load(state)
    return { engine: forked, here: forkOperator.here }
  }

  const service: UnroutedService & { server?: SetupServer } = {
    baseUrl,
    serviceName,
    engine,
    ...(server ? { server } : {}),
    secret: keys[0]!,
    secrets: keys,
    authorize: (abilities, authorizeOptions) =>
      authorizeThrough(
        current().engine.handle,
        { baseUrl, serviceName, token: keys[0]! },
        abilities,
        authorizeOptions,
      ),
    createSecret: (key) => current().engine.account.createSecret(key === undefined ? {} : { key }),
    rollSecret: async (id, at) => {
      checkMoment('at', at)
      return current().engine.account.rollSecret(id, at === undefined ? {} : { at })
    },
    listSecrets: () => current().engine.account.listSecrets(),
    advanceClock: (seconds) => {
      checkDuration('advanceClock', seconds)
      return current().engine.account.advanceClock(seconds)
    },
    now: () => current().engine.account.now(),
    // The same checks the control plane makes of a rule.
    fault: (rule) => current().here.faults.add(readFaultRule({ ...rule }, engine.registry)),
    respond: (endpoint, answer, respondOptions) =>
      current().here.faults.add(
        readFaultRule({ ...respondRule(endpoint, answer, respondOptions) }, engine.registry),
      ),
    clearFaults: (id) => {
      const { faults } = current().here
      if (id === undefined) faults.clear()
      else faults.remove(id)
    },
    requests: (filter) => {
      checkFilter('requests', filter)
      const all = current().here.journal.list().reverse().map(describeExchange)
      return filter ? all.filter((request) => matches(request, filter)) : all
    },
    clearRequests: () => current().here.journal.clear(),
    plan: (planner) => root.here.faults.plan(planner),
    reach: (token, at) => current().engine.insight.reach(token, at),
    simulate: (token, calls, at) => current().engine.insight.simulate(token, calls, at),
    diff: (a, b, at) => current().engine.insight.diff(a, b, at),
    leastPrivilege: (token) =>
      current().engine.insight.leastPrivilege(
        current().here.journal.list(),
        token === undefined ? {} : { token },
      ),
    reset: () => current().engine.reset(),
    checkpoint: () => current().engine.checkpoints.checkpoint(),
    restore: async (id) => {
      await current().engine.checkpoints.restore(id)
    },
    rewind: (exchange, name) => current().engine.history.rewind(exchangeId(exchange), name),
    branches: async () => current().engine.history.list(),
    switchBranch: (id) => current().engine.history.switchTo(id),
    recording: async (from) => {
      const { engine: now } = current()
      const control = controlClient({ baseUrl, send: now.handle })
      return control.get('recording', { from: from ?? now.history.oldest() ?? 1 })
    },
    isolated:
      <Args extends unknown[], R>(fn: (...args: Args) => R) =>
      async (...args: Args): Promise<Awaited<R>> => {
        const bound = await copy()
        return scope.run(bound, async (): Promise<Awaited<R>> => await fn(...args))
      },
    handlers,
    stop: () => {
      if (!throughMsw || !answering.delete(baseUrl)) return
      if (!given) leaveSharedServer(handlers)
    },
  }
  trackInFlight(service, inFlight)
  return service
}
