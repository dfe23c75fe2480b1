import { createAccount, type Account } from './account/account'
import { createControlPlane } from './operator/control-plane'
import { commitWithUsage } from './account/usage'
import { authenticate } from './auth/credentials'
import { createSystemClock, nowSeconds } from './clock'
import { InvalidError, MethodError, UndefinedError } from './errors'
import { createExchangeLog, type ExchangeDraft } from './operator/exchange-log'
import { createFaults, InjectedFault } from './operator/faults'
import { createStrictReport, StrictError, strictDeviations } from './operator/strict'
import { createRegistry, type Registry } from './packages'
import { NONE } from './runtime/endpoint'
import { Evaluation } from './runtime/evaluate'
import { createOverlay } from './runtime/overlay'
import { createRateWindow } from './rate-window'
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
import { readBody } from './wire/body'
import { bodyFormat, requestFormat, responseFormat, type Format } from './wire/formats'
import { routeOf, type Route } from './wire/path'
import { parseCall } from './wire/request'
import { CORS_HEADERS, errorResponse, resultResponse } from './wire/response'

export interface EngineOptions extends Partial<Omit<EngineSettings, 'limits' | 'store'>> {
  store: Store
  limits?: Partial<Limits>
  /**
   * Refuse what a lenient server tolerates but the interface does not promise (a body with
   * no content type, JSON sent as text, an `accept` no format answers, unknown tuple
   * markers), and report every request; also switched at `POST /_account/strict`.
   */
  strict?: boolean
  /**
   * Keep the last this many exchanges (request, response and the decision trace) for
   * `GET /_account/exchanges`; 0, the default, keeps none and traces nothing.
   */
  exchangeLog?: number
}

export interface Engine {
  /** Answers one request to `<baseUrl>/...`: an endpoint call or the account control plane. */
  handle(request: Request): Promise<Response>
  /**
   * Where `handle` sends a request with this URL path: the one reading of a path, for any
   * layer in front of the engine that guards part of it (the HTTP server's control token).
   */
  route(pathname: string): Route
  account: Account
  registry: Registry
  settings: EngineSettings
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
  const account = createAccount(store, clock, serviceName)
  const faults = createFaults()
  const strict = { enabled: options.strict ?? false, report: createStrictReport() }
  const log = createExchangeLog(options.exchangeLog ?? 0, clock)
  const control = createControlPlane(account, registry, serviceName, limits.maxBodyBytes, {
    faults,
    limits,
    strict,
    log,
  })
  const visibleSettings = endpointSettings(settings)
  const rate = createRateWindow(() => limits.rateLimit, clock)

  async function call(
    request: Request,
    path: string,
    reply: Format,
    draft: ExchangeDraft | undefined,
  ): Promise<Response> {
    if (request.method !== 'POST') throw new MethodError('POST')
    const body = await readBody(request, limits.maxBodyBytes)
    if (draft) draft.body = body
    if (strict.enabled) {
      const deviations = strictDeviations(request, body, serviceName)
      strict.report.record({
        method: request.method,
        url: request.url,
        at: clock.now(),
        deviations,
      })
      if (deviations.length > 0) throw new StrictError(deviations)
    }
    const fault = faults.take(path.split('/').join('.'))
    if (fault) {
      if (fault.delayMs > 0) await clock.sleep(fault.delayMs)
      if (fault.status === 429)
        throw new InjectedFault(429, { 'retry-after': String(fault.retryAfter) })
      if (fault.status !== 0) throw new InjectedFault(fault.status, {})
    }
    await account.syncClock()
    const signer = await account.signer()
    const principal = await authenticate(
      request.headers.get('authorization'),
      store,
      signer,
      nowSeconds(clock),
      draft?.observe,
    )
    rate.check()
    const headers = rate.header()
    const format = requestFormat(request.headers.get('content-type'), serviceName)
    const parsed = parseCall(body, format, new URL(request.url).searchParams)
    const name = path.split('/').join('.')
    const overlay = createOverlay(store, (writes) =>
      commitWithUsage(store, writes, limits.maxAccountBytes),
    )
    const evaluation = new Evaluation(
      {
        settings: visibleSettings,
        store: overlay,
        clock,
        signer,
        principal,
        setHeader: (key, value) => (headers[key] = value),
        countCall: () => rate.count(),
        ...(draft ? { tracer: draft.tracer } : {}),
      },
      (endpoint) => registry.resolve(endpoint, overlay),
      (endpoint) => registry.neighbours(endpoint),
    )
    const result = await evaluation.run(name, parsed)
    await overlay.flush()
    return resultResponse(result === NONE ? null : result, reply, serviceName, headers)
  }

  async function handle(request: Request): Promise<Response> {
    const route = routeOf(new URL(request.url).pathname, basePath)
    if (route.kind === 'control') {
      // No CORS preflight is granted: another origin may not use the control plane.
      if (request.method === 'OPTIONS')
        return new Response(null, { status: 204, headers: { allow: 'GET, POST' } })
      return control(request, route.path)
    }
    // Errors answer in the request's family too, even when its body can't be read.
    const family = bodyFormat(request.headers.get('content-type'), serviceName) ?? 'text'
    const reply = responseFormat(request.headers.get('accept'), family, serviceName)
    const path = route.kind === 'call' ? route.path : undefined
    const named = path !== undefined && /^[^/]+(\/[^/]+)*$/.test(path)
    const draft = log.draft(request, named ? path.split('/').join('.') : null)
    let response: Response
    let failure: unknown
    try {
      if (request.method === 'OPTIONS') return preflight('POST')
      if (route.kind === 'ambiguous') {
        throw new InvalidError(
          `the path \`${new URL(request.url).pathname}' is ambiguous: ${route.reason}; call <baseUrl>/<package>/<endpoint> with single slashes`,
        )
      }
      if (!named) {
        throw new UndefinedError(`undefined ${serviceName} \`${(path ?? '').split('/').join('.')}'`)
      }
      response = await call(request, path, reply, draft)
    } catch (error) {
      failure = error
      response = errorResponse(error, reply, serviceName)
    }
    if (draft) await log.add(draft, response, failure)
    return response
  }

  const route = (pathname: string) => routeOf(pathname, basePath)
  return { handle, route, account, registry, settings }
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
