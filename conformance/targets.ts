import { setupServer } from 'msw/node'
import { createEngine, type Engine } from '../src/engine'
import { createHandlers } from '../src/msw/handlers'
import { spawnServe } from '../src/node/spawn-serve'
import { createMemoryStore } from '../src/storage/memory-store'
import type { Target, WireRequest, WireResponse } from './run'

/** The real service's own name: by default our targets answer as it does, byte for byte. */
export const SERVICE_NAME = 'proc'
const BASE_URL = 'https://conformance.proc.test'

/** How our own engine is set up for a run. */
export interface EngineTargetOptions {
  /** Builds the engine: any `createEngine`, so a test may pass a broken one. */
  makeEngine?: EngineFactory
  /** The service's name, `proc` unless given. */
  serviceName?: string
}

const engineOptions = (options: EngineFactory | EngineTargetOptions = {}) =>
  typeof options === 'function' ? { makeEngine: options } : options

function toRequest({ url, method, headers, body }: WireRequest): Request {
  return new Request(url, {
    method,
    headers,
    ...(body === undefined ? {} : { body: Buffer.from(body, 'base64') }),
  })
}

async function fromResponse(response: Response): Promise<WireResponse> {
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: Buffer.from(await response.arrayBuffer()).toString('base64'),
  }
}

/** The control plane answered with an error. */
export class ControlPlaneError extends Error {
  constructor(
    readonly path: string,
    readonly status: number,
    readonly text: string,
  ) {
    super(`control plane ${path}: ${status} ${text}`)
    this.name = 'ControlPlaneError'
  }
}

/** The control plane reached with `send`, as any target serves it under its base URL. */
function controlOver(
  send: (request: Request) => Promise<Response>,
  baseUrl: string,
  headers: Record<string, string> = {},
): NonNullable<Target['control']> {
  return async (path, body) => {
    const response = await send(
      new Request(`${baseUrl}/_account/${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          ...headers,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    )
    const text = await response.text()
    if (!response.ok) throw new ControlPlaneError(path, response.status, text)
    return JSON.parse(text) as unknown
  }
}

/** Builds the engine targets run against: any `createEngine`, so a test may pass a broken one. */
export type EngineFactory = (options: { baseUrl: string; serviceName: string }) => Engine

const defaultEngine: EngineFactory = (options) =>
  createEngine({ store: createMemoryStore(), ...options })

/** The engine in this process: requests go straight to `handle`. */
export function handleTarget(options: EngineFactory | EngineTargetOptions = {}): Target {
  const { makeEngine = defaultEngine, serviceName = SERVICE_NAME } = engineOptions(options)
  const engine = makeEngine({ baseUrl: BASE_URL, serviceName })
  const send = (request: Request) => engine.handle(request)
  return {
    name: 'handle',
    baseUrl: BASE_URL,
    serviceName,
    send: async (request) => fromResponse(await send(toRequest(request))),
    control: controlOver(send, BASE_URL),
  }
}

/** The engine behind msw's `setupServer`: requests go through the global `fetch`. */
export function mswTarget(
  options: EngineFactory | EngineTargetOptions = {},
): Target & { close(): void } {
  const { makeEngine = defaultEngine, serviceName = SERVICE_NAME } = engineOptions(options)
  const engine = makeEngine({ baseUrl: BASE_URL, serviceName })
  const server = setupServer(...createHandlers(engine))
  server.listen({ onUnhandledRequest: 'error' })
  const send = (request: Request) => fetch(request)
  return {
    name: 'msw',
    baseUrl: BASE_URL,
    serviceName,
    send: async (request) => fromResponse(await send(toRequest(request))),
    control: controlOver(send, BASE_URL),
    close: () => server.close(),
  }
}

let serveCommand = ['npm', 'run', 'serve', '--']

/** How to start `serve` (the installed kit runs its own command instead of `npm run serve`). */
export function setServeCommand(command: string[]): void {
  serveCommand = command
}

/** `serve` in its own process, over real HTTP on 127.0.0.1, control token and all. */
export async function serveTarget(
  root: string,
  { serviceName = SERVICE_NAME }: { serviceName?: string } = {},
): Promise<Target & { close(): Promise<void>; controlToken: string }> {
  const token = 'conformance-control-token'
  const server = await spawnServe(
    ['--port', '0', '--service-name', serviceName, '--control-token', token],
    { command: serveCommand, cwd: root },
  )
  const send = (request: Request) => fetch(request)
  return {
    name: 'serve',
    baseUrl: server.url,
    serviceName,
    controlToken: token,
    send: async (request) => fromResponse(await send(toRequest(request))),
    control: controlOver(send, server.url, { authorization: `Bearer ${token}` }),
    close: () => server.stop(),
  }
}

export interface BaseUrlOptions {
  /** A secret of the account, used where there is no control plane to make one. */
  secret?: string
  serviceName?: string
  /**
   * The control token of a server with our control plane (`serve`): every case then runs,
   * each on an account reset through `<baseUrl>/_account/*`.
   */
  controlToken?: string
}

/**
 * A running service at a base URL. With a control token, cases reset the account and move its
 * clock through the control plane; without one, they use the secret, and steps that need the
 * control plane are skipped with the reason.
 */
export function baseUrlTarget(baseUrl: string, options: BaseUrlOptions = {}): Target {
  const { secret, serviceName = SERVICE_NAME, controlToken } = options
  const root = baseUrl.replace(/\/+$/, '')
  const send = (request: Request) => fetch(request)
  return {
    name: 'base-url',
    baseUrl: root,
    serviceName,
    ...(secret === undefined ? {} : { secret }),
    send: async (request) => fromResponse(await send(toRequest(request))),
    ...(controlToken === undefined
      ? {}
      : { control: controlOver(send, root, { authorization: `Bearer ${controlToken}` }) }),
  }
}
