import { createAccount, type Account } from './account/account'
import type { HmacFactory } from './auth/hmac'
import { readSeed } from './auth/random'
import { useHmac } from './auth/secret-index'
import { accountClock, createSystemClock, type AccountClock } from './clock'
import { createHistory, type History } from './history/history'
import { answer as door, answerWithin } from './door'
import { createInsight, type Insight } from './insight'
import { createCheckpoints, type Checkpoints } from './operator/checkpoints'
import { createControlPlane } from './control/control-plane'
import { createLocalOperator } from './operator/local'
import type { OperatorState } from './operator/state'
import type { EngineParts } from './pipeline'
import type { AccountTurns } from './runtime/turns'
import { createRegistry, type Registry } from './packages'
import {
  DEFAULT_BASE_URL,
  DEFAULT_SERVICE_NAME,
  defaultLimits,
  endpointSettings,
  SERVICE_NAME_PATTERN,
  type EngineSettings,
  type Limits,
} from './settings'
import type { Store } from './store'
import type { Call } from './wire/call'
import { callOf, responseOf } from './wire/fetch'
import { routeOf, type Route } from './wire/path'
import type { Reply } from './wire/response'
import { basePathOf, trimBaseUrl } from './wire/base-url'

export interface EngineOptions extends Partial<Omit<EngineSettings, 'limits' | 'store'>> {
  store: Store
  limits?: Partial<Limits>
  /**
   * Secret keys the account holds from `start()` on and gets back, the same keys, after every
   * `reset()`. Without any, `start()` keeps the live secrets the store already holds, or makes one.
   */
  secrets?: readonly string[]
  /**
   * Refuse what a lenient server tolerates but the interface does not promise (a body with
   * no content type, JSON sent as text, an `accept` no format answers, unknown tuple
   * markers), and report every request; also switched at `POST /_account/strict`.
   */
  strict?: boolean
  /**
   * Keep the last this many exchanges (request, response and the decision trace) for
   * `GET /_account/exchanges`; 0, the default, keeps none and traces nothing. Also set at
   * `POST /_account/exchanges` `{capacity}`.
   */
  exchangeLog?: number
  /**
   * Where the operator's controls live: faults, strict mode and its report, the journal, the
   * rate limit and its window. By default in this process, set up from `strict`, `exchangeLog`
   * and `limits.rateLimit`; engines given one shared state act as one service (decision 033).
   */
  operator?: OperatorState
  /**
   * HMAC-SHA-256 as the platform best computes it, for signing and verifying tokens and finding
   * secret keys: the Node adapters give `node:crypto`'s, synchronous; WebCrypto's by default.
   */
  hmac?: HmacFactory
  /**
   * How this account's evaluations take turns with other accounts' on a server that hosts
   * several (`serve`: a cap on those in flight, round robin across accounts). Without it they
   * yield to the event loop every `limits.sliceMs`.
   */
  turns?: AccountTurns
  /**
   * Makes the account deterministic (decision 086): every value it draws at random comes from a
   * generator keyed by this seed and the account's own signing key, and its clock stands still
   * (it moves only when moved), so that the same requests at the same times on the same
   * starting state answer the same bytes. A text of 1 to 128 characters, or a whole number.
   * Kept in the account (an export carries it) and given back by every `reset()`. Without one,
   * the seed the store holds, if any.
   */
  seed?: string | number
  /**
   * Deploy links name the origin each request came in by, followed by the base URL's path,
   * rather than the base URL's origin: for a server clients know by an address it does not
   * (`serve` on `--port 0` without `--base-url`, a hosted account). Off by default.
   */
  linksByRequest?: boolean
}

export interface Engine {
  /**
   * The one door: answers a request to `<baseUrl>/...` — an endpoint call, a preflight or the
   * account control plane — as plain data, building no Fetch objects. Faults, strict mode, the
   * journal and its decision trace all read and write this data; a fault the reply met says
   * how it reaches the client (`Reply.fault`), for the adapter to do. `route` is the path's
   * reading when a layer in front has read it already (`engine.route(call.pathname)`).
   */
  answer(call: Call, route?: Route): Promise<Reply>
  /** The same door in Fetch's shapes (msw in the page and in Node): `Request` in, `Response` out. */
  handle(request: Request): Promise<Response>
  /**
   * Where a request with this URL path goes: the one reading of a path, for any layer in front
   * of the engine that guards part of it (the HTTP server's control token).
   */
  route(pathname: string): Route
  /**
   * Makes sure the account holds its starting secrets (see `EngineOptions.secrets`) and
   * returns their keys, the ones `reset()` brings back. Idempotent.
   */
  start(): Promise<string[]>
  /**
   * Back to the state the service started in: its starting secrets (same keys), the clock
   * where it started, no keys or procedures, no faults, strict mode and the rate limit as
   * configured with an empty window, an empty journal. `seed` starts it with that seed from now
   * on (`null`: with none), in place of the one it was created with.
   */
  reset(options?: { seed?: string | null }): Promise<void>
  /**
   * The account's state as a stack of frames: `checkpoint()`, `restore(id)` (decision 065);
   * `capture()` and `load(state)` copy the whole state into another engine.
   */
  checkpoints: Checkpoints
  account: Account
  operator: OperatorState
  registry: Registry
  settings: EngineSettings
  /** Reach, simulate and diff over this account, by the rules that answer its calls. */
  insight: Insight
  /**
   * The account's history (decision 086): rewind to before any exchange it keeps, onto a new
   * branch; the branches, listed, switched, named and deleted.
   */
  history: History
}

/** Creates the whole service over a store. Pure: no DOM, no network, no storage of its own. */
export function createEngine(options: EngineOptions): Engine {
  const settings: EngineSettings = {
    serviceName: options.serviceName ?? DEFAULT_SERVICE_NAME,
    baseUrl: trimBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL),
    store: options.store,
    clock: accountClock(options.clock ?? createSystemClock()),
    limits: { ...defaultLimits, ...options.limits },
  }
  let seed: string | undefined
  if (options.seed !== undefined) {
    const read = readSeed(options.seed)
    if (typeof read !== 'string') throw new Error(read.problem)
    seed = read
  }
  const { serviceName, store, clock, limits } = settings
  if (!SERVICE_NAME_PATTERN.test(serviceName)) {
    throw new Error(
      `service name ${JSON.stringify(serviceName)} must match ${SERVICE_NAME_PATTERN}`,
    )
  }
  const basePath = pathOf(settings.baseUrl)
  const registry = createRegistry(serviceName)
  const configured = { strict: options.strict ?? false, rateLimit: { ...limits.rateLimit } }
  const operator =
    options.operator ?? createLocalOperator({ ...configured, journal: options.exchangeLog ?? 0 })
  // Requests find secrets through the store itself; the account, through the history's.
  useHmac(store, options.hmac)
  const history = createHistory({
    store,
    operator,
    clock: settings.clock as AccountClock,
    resync: (at) => account.resync(at),
    maxBodyBytes: limits.maxBodyBytes,
  })
  // The account writes through the history, which records what its commits change.
  const account = createAccount(history.store, clock, serviceName, limits, options.hmac)
  let startingSecrets: string[] | undefined = options.secrets ? [...options.secrets] : undefined
  operator.useRandom?.(() => account.randomNow())

  async function start(): Promise<string[]> {
    // The seed first: the starting secrets are drawn from it.
    if (seed !== undefined) {
      if (account.seed() !== seed) await account.setSeed(seed)
    } else {
      await account.loadSeed()
      seed = account.seed()
    }
    if (!startingSecrets) {
      const live = (await account.listSecrets()).filter((secret) => secret.state !== 'expired')
      startingSecrets =
        live.length > 0 ? live.map((secret) => secret.key) : [(await account.createSecret()).key]
    }
    await ensureSecrets(startingSecrets)
    return [...startingSecrets]
  }

  /**
   * Gives the account each key as a secret unless it has it. Engines starting at once over one
   * shared store may race to create the same one: the store keeps one secret per key and
   * refuses the others, and the loser then finds the one that was made.
   */
  async function ensureSecrets(keys: readonly string[]): Promise<void> {
    const held = async () => new Set((await account.listSecrets()).map((secret) => secret.key))
    const before = await held()
    for (const key of keys) {
      if (before.has(key)) continue
      try {
        await account.createSecret({ key })
      } catch (error) {
        if (!(await held()).has(key)) throw error
      }
    }
  }

  async function reset(given: { seed?: string | null } = {}): Promise<void> {
    if (given.seed !== undefined) seed = given.seed ?? undefined
    await account.reset()
    await operator.reset(configured)
    if (seed !== undefined) await account.setSeed(seed)
    if (startingSecrets) await ensureSecrets(startingSecrets)
  }

  const checkpoints = createCheckpoints({ account, operator, store: history.store, clock })
  const insight = createInsight({ account, registry, settings })
  const control = createControlPlane({
    account,
    insight,
    registry,
    serviceName,
    maxBodyBytes: limits.maxBodyBytes,
    operator,
    reset,
    checkpoints,
    history,
    replayCall: (call) => answerWithin(parts, call, routeOf(call.pathname, basePath)),
    baseUrl: settings.baseUrl,
    ...(options.turns ? { turns: options.turns } : {}),
  })
  const parts: EngineParts = {
    serviceName,
    basePath,
    store,
    clock,
    limits,
    account,
    registry,
    operator,
    visibleSettings: endpointSettings(settings),
    linksByRequest: options.linksByRequest ?? false,
    ...(options.turns ? { turns: options.turns } : {}),
    history,
  }
  const answer = (call: Call, route = routeOf(call.pathname, basePath)) =>
    door(parts, control, call, route)

  return {
    answer,
    handle: async (request) => responseOf(await answer(callOf(request)), request.signal),
    route: (pathname) => routeOf(pathname, basePath),
    start,
    reset,
    checkpoints,
    account,
    operator,
    registry,
    settings,
    insight,
    history,
  }
}

/** The base URL's path without a trailing slash. */
function pathOf(baseUrl: string): string {
  try {
    return basePathOf(baseUrl)
  } catch {
    throw new Error(
      `baseUrl ${JSON.stringify(baseUrl)} must be an absolute URL, such as https://api.example.test`,
    )
  }
}
