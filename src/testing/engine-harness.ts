import { createMemoryStore } from '../storage/memory-store'
import { createManualClock } from '../engine/clock'
import { createEngine, type Engine, type EngineOptions } from '../engine/engine'
import type { OperatorModes, OperatorState } from '../engine/operator/state'
import { defaultLimits } from '../engine/settings'
import type { Store } from '../engine/store'

export interface Exchange {
  status: number
  headers: Headers
  text: string
  /** The body parsed as JSON (throws when it is not). */
  json(): unknown
}

export interface CallOptions {
  token?: string | null
  body?: string
  contentType?: string | null
  accept?: string
  query?: Record<string, string>
  method?: string
  headers?: Record<string, string>
}

/** Turns an engine into a way of sending it requests, e.g. through msw and `fetch`. */
export type Transport = (engine: Engine) => (request: Request) => Promise<Response>

/** Where a test setup file may install a transport; without one, requests go to `handle`. */
export const TRANSPORT = Symbol.for('service-playground.test-transport')

/** Where a test setup file may install a store factory; without one, stores are in memory. */
export const STORE = Symbol.for('service-playground.test-store')

/**
 * Where a test setup file may install a maker of whole accounts: a store and the operator's
 * controls beside it, set up with the harness's modes (as `serve` over PostgreSQL keeps both).
 */
export const ACCOUNT = Symbol.for('service-playground.test-account')

type Installed = {
  [TRANSPORT]?: Transport
  [STORE]?: () => Promise<Store>
  [ACCOUNT]?: (modes: OperatorModes) => Promise<{ store: Store; operator: OperatorState }>
}

let hosts = 0

/**
 * An engine over a memory store and a manual clock, with one secret, and helpers that send
 * requests exactly as a client would: to `handle`, or through the installed transport; over
 * the installed store (the same suites run every way). For tests only.
 */
export async function createHarness(options: Partial<EngineOptions> = {}) {
  const installed = globalThis as Installed
  const transport = installed[TRANSPORT]
  const clock = createManualClock()
  const modes: OperatorModes = {
    strict: options.strict ?? false,
    journal: options.exchangeLog ?? 0,
    rateLimit: { ...defaultLimits.rateLimit, ...options.limits?.rateLimit },
  }
  const made = installed[ACCOUNT]
    ? await installed[ACCOUNT](modes)
    : { store: installed[STORE] ? await installed[STORE]() : createMemoryStore() }
  const engine = createEngine({
    ...made,
    clock,
    // Every harness gets its own host, so handlers of several harnesses never overlap.
    baseUrl: `https://api-${++hosts}.example.test`,
    ...options,
  })
  const send = transport ? transport(engine) : (request: Request) => engine.handle(request)
  const secret = await engine.account.createSecret()
  const { serviceName, baseUrl } = engine.settings
  const vnd = `application/vnd.${serviceName}+json`

  async function call(name: string, callOptions: CallOptions = {}): Promise<Exchange> {
    const { token = secret.key, body, contentType, accept, query, method = 'POST' } = callOptions
    const url = new URL(`${baseUrl}/${name.split('.').join('/')}`)
    for (const [key, value] of Object.entries(query ?? {})) url.searchParams.append(key, value)
    const headers = new Headers(callOptions.headers)
    if (token !== null) headers.set('authorization', `bearer ${token}`)
    if (contentType !== undefined && contentType !== null) headers.set('content-type', contentType)
    if (accept) headers.set('accept', accept)
    const response = await send(
      new Request(url, { method, headers, body: method === 'GET' ? null : body }),
    )
    const text = await response.text()
    return {
      status: response.status,
      headers: response.headers,
      text,
      json: () => JSON.parse(text),
    }
  }

  /** A call with a tuple body; answers in the tuple format unless told otherwise. */
  const tuples = (name: string, body: unknown, callOptions: CallOptions = {}) =>
    call(name, { contentType: vnd, body: JSON.stringify(body), ...callOptions })

  /** Creates an authorization with the secret (or `token`) and returns it. */
  async function authorize(args: Record<string, unknown>, token = secret.key): Promise<string> {
    const body = Object.entries(args).map(([key, value]) => ['$$', key, value])
    const response = await tuples('auth.create', body, { token, accept: 'text/plain' })
    if (response.status !== 200)
      throw new Error(`auth.create failed: ${response.status} ${response.text}`)
    return response.text
  }

  /** A control-plane request. */
  async function control(
    path: string,
    body?: unknown,
    method = body === undefined ? 'GET' : 'POST',
  ) {
    const response = await send(
      new Request(`${baseUrl}/_account/${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? null : JSON.stringify(body),
      }),
    )
    return { status: response.status, body: (await response.json()) as unknown }
  }

  return {
    engine,
    send,
    clock,
    secret,
    vnd,
    call,
    tuples,
    authorize,
    control,
    serviceName,
    baseUrl,
  }
}

export type Harness = Awaited<ReturnType<typeof createHarness>>
