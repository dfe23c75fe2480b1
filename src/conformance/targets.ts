import { setupServer } from 'msw/node'
import { createEngine, type Engine } from '../engine'
import { createHandlers } from '../msw/handlers'
import { spawnServe } from '../server/spawn-serve'
import { createMemoryStore } from '../storage/memory-store'
import { controlOver, fetchTarget, fromResponse, toRequest } from './fetch-target'
import type { Target } from './run'

export { ControlPlaneError } from './fetch-target'

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
    // Its deploy links name the base URL the engine targets use: the same bytes on every target.
    [
      '--port',
      '0',
      '--service-name',
      serviceName,
      '--control-token',
      token,
      '--base-url',
      BASE_URL,
    ],
    { command: serveCommand, cwd: root },
  )
  const send = (request: Request) => fetch(request)
  return {
    name: 'serve',
    baseUrl: server.url,
    serviceName,
    controlToken: token,
    send: async (request) => fromResponse(await send(toRequest(request))),
    control: controlOver(send, server.url, token),
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
  return fetchTarget({
    baseUrl,
    serviceName,
    ...(secret === undefined ? {} : { secret }),
    ...(controlToken === undefined ? {} : { control: controlToken }),
  })
}
