import { createAccount, type Account } from './account/account'
import { runIsolated } from './account/isolation'
import { authenticate } from './auth/credentials'
import type { HmacFactory } from './auth/hmac'
import type { Principal } from './auth/principal'
import type { Signer } from './auth/signer'
import { createSystemClock, nowSeconds } from './clock'
import { InvalidError, MethodError, UndefinedError } from './errors'
import { createControlPlane } from './operator/control-plane'
import { ExchangeDraft } from './operator/exchange-log'
import { faultAfter, faultBefore, type FaultRule } from './operator/faults'
import { createLocalOperator } from './operator/local'
import type { OperatorState, OperatorView } from './operator/state'
import { StrictError, strictDeviations } from './operator/strict'
import { createRegistry, type Registry } from './packages'
import { checkCounted, checkWindow, rateHeader } from './rate-window'
import { NONE } from './runtime/endpoint'
import { Evaluation } from './runtime/evaluate'
import type { AccountTurns, Pause } from './runtime/turns'
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
import { callOf, type Call } from './wire/call'
import { bodyFormat, requestFormat, responseFormat, type Format } from './wire/formats'
import { routeOf, type Route } from './wire/path'
import { parseCall } from './wire/request'
import { CORS_HEADERS, errorReply, resultReply, toResponse, type Reply } from './wire/response'

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
}

export interface Engine {
  /** Answers one request to `<baseUrl>/...`: an endpoint call or the account control plane. */
  handle(request: Request): Promise<Response>
  /**
   * Answers an endpoint call with plain data, building no Fetch objects, when nothing about it
   * needs them. `undefined`, before anything is read, when something does (the control plane, a
   * preflight, a fault set up, strict mode, the journal): give the request to `handle` instead.
   */
  answer(call: Call): Promise<Reply | undefined>
  /**
   * Where `handle` sends a request with this URL path: the one reading of a path, for any
   * layer in front of the engine that guards part of it (the HTTP server's control token).
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
   * configured with an empty window, an empty journal.
   */
  reset(): Promise<void>
  account: Account
  operator: OperatorState
  registry: Registry
  settings: EngineSettings
}

/** What the engine knows of one request once it is routed to an endpoint. */
interface Exchange {
  call: Call
  /** `a.b.c`, or `null` when the path names no endpoint. */
  endpoint: string | null
  /** The body's format, read once from `content-type`; `undefined` for one we do not read. */
  format: Format | undefined
  /** The format the answer is written in, errors included. */
  reply: Format
  draft?: ExchangeDraft
}

/** Creates the whole service over a store. Pure: no DOM, no network, no storage of its own. */
export function createEngine(options: EngineOptions): Engine {
  const settings: EngineSettings = {
    serviceName: options.serviceName ?? DEFAULT_SERVICE_NAME,
    baseUrl: (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, ''),
    store: options.store,
    clock: options.clock ?? createSystemClock(),
    limits: { ...defaultLimits, ...options.limits },
  }
  const { serviceName, store, clock, limits } = settings
  if (!SERVICE_NAME_PATTERN.test(serviceName)) {
    throw new Error(
      `service name ${JSON.stringify(serviceName)} must match ${SERVICE_NAME_PATTERN}`,
    )
  }
  const basePath = pathOf(settings.baseUrl)
  const registry = createRegistry(serviceName)
  const account = createAccount(store, clock, serviceName, limits, options.hmac)
  const configured = { strict: options.strict ?? false, rateLimit: { ...limits.rateLimit } }
  const operator =
    options.operator ?? createLocalOperator({ ...configured, journal: options.exchangeLog ?? 0 })
  const visibleSettings = endpointSettings(settings)
  let startingSecrets: string[] | undefined = options.secrets ? [...options.secrets] : undefined

  async function start(): Promise<string[]> {
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

  async function reset(): Promise<void> {
    await account.reset()
    await operator.reset(configured)
    if (startingSecrets) await ensureSecrets(startingSecrets)
  }

  const control = createControlPlane({
    account,
    registry,
    serviceName,
    maxBodyBytes: limits.maxBodyBytes,
    operator,
    reset,
  })

  // The stages of an endpoint call, in the order decision 001 sets.

  /** 405 for anything but POST, then 413 while the body is read. */
  async function receive(exchange: Exchange): Promise<Uint8Array> {
    if (exchange.call.method !== 'POST') throw new MethodError('POST')
    const body = await exchange.call.body(limits.maxBodyBytes)
    if (exchange.draft) exchange.draft.body = body
    return body
  }

  /** In strict mode, what the interface does not promise is refused, and every request noted. */
  async function checkStrict(
    { call }: Exchange,
    body: Uint8Array,
    view: OperatorView,
  ): Promise<void> {
    if (!view.strict) return
    const request = call.request()
    const deviations = strictDeviations(request, body, serviceName)
    await operator.strict.record({
      method: request.method,
      url: request.url,
      at: clock.now(),
      deviations,
    })
    if (deviations.length > 0) throw new StrictError(deviations)
  }

  /** 401 unless the bearer token is a live secret or authorization; then 429 past the limit. */
  async function admit(
    { call, draft }: Exchange,
    view: OperatorView,
    signer: Signer,
  ): Promise<Principal> {
    await account.syncClock(view.clockOffset)
    const principal = await authenticate(
      call.header('authorization'),
      store,
      signer,
      nowSeconds(clock),
      draft?.observe,
    )
    checkWindow(view.rateLimit, view.window, nowSeconds(clock))
    return principal
  }

  /** 415 for a content type we do not read, 400 for a body that does not parse. */
  function parse({ call, format }: Exchange, body: Uint8Array) {
    const known = format ?? requestFormat(call.header('content-type'), serviceName)
    return parseCall(body, known, new URLSearchParams(call.search))
  }

  /** Runs the call tree against an overlay of the store, then commits what it wrote at once. */
  async function evaluate(
    exchange: Exchange,
    principal: Principal,
    call: ReturnType<typeof parseCall>,
    { rateLimit }: OperatorView,
    signer: Signer,
  ): Promise<Reply> {
    let headers = rateHeader(rateLimit)
    // Calls are counted, each as it starts, while the limit is enforced.
    const countCall = async () => {
      const now = nowSeconds(clock)
      checkCounted(rateLimit, await operator.rate.count(now, rateLimit.windowSeconds), now)
    }
    // The request's reads and writes are isolated from every other's: it may run again.
    const deadline = clock.now() + limits.timeLimitMs
    const run = (pause?: Pause) =>
      runIsolated(store, limits.maxAccountBytes, (overlay) => {
        exchange.draft?.tracer.restart()
        headers = rateHeader(rateLimit)
        const evaluation = new Evaluation(
          {
            settings: visibleSettings,
            store: overlay,
            clock,
            signer,
            principal,
            deadline,
            ...(pause ? { pause } : {}),
            setHeader: (key, value) => (headers[key] = value),
            ...(rateLimit.enforce ? { countCall } : {}),
            ...(exchange.draft ? { tracer: exchange.draft.tracer } : {}),
          },
          (endpoint) => registry.resolve(endpoint, overlay),
          (endpoint) => registry.neighbours(endpoint),
        )
        return evaluation.run(exchange.endpoint!, call)
      })
    const result = await (options.turns ? options.turns.admit(run) : run())
    return resultReply(result === NONE ? null : result, exchange.reply, serviceName, headers)
  }

  /** An endpoint call, stage by stage. */
  async function callEndpoint(exchange: Exchange, view: OperatorView): Promise<Reply> {
    const body = await receive(exchange)
    await checkStrict(exchange, body, view)
    // Read once: the request is authenticated and evaluated under one signing key.
    const signer = await account.signer()
    const principal = await admit(exchange, view, signer)
    const call = parse(exchange, body)
    return evaluate(exchange, principal, call, view, signer)
  }

  /** A fault the operator set up meets the call: before it runs, instead of it, or after. */
  async function withFaults(exchange: Exchange, view: OperatorView): Promise<Response> {
    const fault = view.faulted ? await takeFault(exchange) : undefined
    if (!fault) return respond(exchange, await callEndpoint(exchange, view))
    const instead = await faultBefore(fault, exchange.call.request().signal)
    return instead ?? faultAfter(fault, toResponse(await callEndpoint(exchange, view)))
  }

  /** A reply as the response; the journal keeps its body as it is, reading no clone. */
  function respond({ draft }: Exchange, reply: Reply): Response {
    if (draft) draft.answered = reply.body
    return toResponse(reply)
  }

  function takeFault({ call, endpoint }: Exchange): Promise<FaultRule | undefined> {
    const token = /^\s*bearer\s+(\S+)\s*$/i.exec(call.header('authorization') ?? '')?.[1]
    return operator.faults.take(endpoint!, token ?? null)
  }

  /** Routes, answers, and keeps the exchange in the journal when it is on. */
  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url)
    const route = routeOf(url.pathname, basePath)
    if (route.kind === 'control') {
      // No CORS preflight is granted: another origin may not use the control plane.
      if (request.method === 'OPTIONS')
        return new Response(null, { status: 204, headers: { allow: 'GET, POST' } })
      return control(request, route.path)
    }
    if (request.method === 'OPTIONS') return preflight('POST')
    const exchange = begin(callOf(request, url), route)
    let response: Response
    let failure: unknown
    try {
      const view = await operator.view()
      if (view.journal > 0) exchange.draft = new ExchangeDraft(request, exchange.endpoint, clock)
      if (route.kind === 'ambiguous') {
        throw new InvalidError(
          `the path \`${url.pathname}' is ambiguous: ${route.reason}; call <baseUrl>/<package>/<endpoint> with single slashes`,
        )
      }
      if (exchange.endpoint === null) throw undefinedCall(route)
      response = await withFaults(exchange, view)
    } catch (error) {
      failure = error
      response = respond(exchange, errorReply(error, exchange.reply, serviceName))
    }
    if (exchange.draft) {
      const record = await exchange.draft.finish(response, failure)
      // The answer stands even when the journal cannot keep it (its database went away).
      await operator.journal.add(record).catch(() => undefined)
    }
    return response
  }

  function begin(call: Call, route: Route): Exchange {
    const format = bodyFormat(call.header('content-type'), serviceName)
    // Errors answer in the request's family too, even when its body can't be read.
    const reply = responseFormat(call.header('accept'), format ?? 'text', serviceName)
    const path = route.kind === 'call' ? route.path : undefined
    const endpoint =
      path !== undefined && /^[^/]+(\/[^/]+)*$/.test(path) ? path.split('/').join('.') : null
    return { call, endpoint, format, reply }
  }

  function undefinedCall(route: Route): UndefinedError {
    const path = route.kind === 'call' ? route.path : ''
    return new UndefinedError(`undefined ${serviceName} \`${path.split('/').join('.')}'`)
  }

  /** An endpoint call answered as plain data, when nothing the operator set up reads Fetch objects. */
  async function answer(call: Call): Promise<Reply | undefined> {
    const route = routeOf(call.pathname, basePath)
    if (route.kind !== 'call' || call.method === 'OPTIONS') return undefined
    const view = await operator.view()
    if (view.strict || view.journal > 0 || view.faulted) return undefined
    const exchange = begin(call, route)
    try {
      if (exchange.endpoint === null) throw undefinedCall(route)
      return await callEndpoint(exchange, view)
    } catch (error) {
      return errorReply(error, exchange.reply, serviceName)
    }
  }

  return {
    handle,
    answer,
    route: (pathname) => routeOf(pathname, basePath),
    start,
    reset,
    account,
    operator,
    registry,
    settings,
  }
}

/** The base URL's path without a trailing slash. */
function pathOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).pathname.replace(/\/+$/, '')
  } catch {
    throw new Error(
      `baseUrl ${JSON.stringify(baseUrl)} must be an absolute URL, such as https://api.example.test`,
    )
  }
}

function preflight(methods: string): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      'access-control-allow-methods': methods,
      'access-control-allow-headers': 'authorization, content-type, accept',
      'access-control-max-age': '600',
    },
  })
}
