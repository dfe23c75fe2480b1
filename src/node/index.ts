import type { SetupServer } from 'msw/node'
import { AsyncLocalStorage } from 'node:async_hooks'
import {
  callOf,
  createEngine,
  createSystemClock,
  responseOf,
  defaultLimits,
  type Engine,
  type LocalOperator,
} from '../engine'
import { readFaultRule } from '../engine/operator/read-fault-rule'
import { realTime } from '../engine/real-time'
import { createLocalOperator } from '../engine/operator/local'
import { createHandlers } from '../msw/handlers'
import { createMemoryStore } from '../storage/memory-store'
import { checkFilter, DEFAULT_JOURNAL, describeExchange, matches } from '../client/journal'
import { authorizeThrough } from '../client/authorize'
import { controlClient } from '../client/control'
import { exchangeId, respondRule } from '../client/service-controls'
import { checkDuration, checkMoment } from '../client/times'
import { checkOptions, checkSecrets } from '../client/options'
import { callsInFlight, trackInFlight } from './calls-in-flight'
import { START_SERVICE_OPTIONS, type Service, type StartServiceOptions } from './service-options'
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

export {
  START_SERVICE_OPTIONS,
  type FaultOptions,
  type Service,
  type StartServiceOptions,
} from './service-options'

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
