import type { HttpHandler } from 'msw'
import type { SetupServer } from 'msw/node'
import {
  createEngine,
  type Clock,
  type Engine,
  type Limits,
  type SecretView,
  type Store,
} from '../engine'
import { createHandlers } from '../msw'
import { createMemoryStore } from '../storage'
import { joinSharedServer, leaveSharedServer } from './shared-server'

export { listen, type Listener, type ListenOptions } from './http'

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
  /** Keep the last this many exchanges with their decision traces (`GET /_account/exchanges`). */
  exchangeLog?: number
  /**
   * Your own msw server, if your tests have one: the service's handlers are added to it with
   * `server.use` (so your `server.resetHandlers()` removes them). Pass it: msw intercepts
   * through one server per process, and the latest to `listen` takes over.
   */
  server?: SetupServer
}

/** A running service and its account settings. */
export interface Service {
  baseUrl: string
  serviceName: string
  engine: Engine
  /** The msw server answering `baseUrl`: the one you passed, or one shared by our services. */
  server: SetupServer
  /** The first secret key: a bearer token that reaches every endpoint. */
  secret: string
  createSecret(key?: string): Promise<SecretView>
  /** Rolls now, or at `at` (Unix seconds on the service's clock); returns the replacement. */
  rollSecret(id: string, at?: number): Promise<SecretView>
  listSecrets(): Promise<SecretView[]>
  /** Moves the service's clock forward; returns the new time in Unix seconds. */
  advanceClock(seconds: number): Promise<number>
  /** Unix seconds on the service's clock. */
  now(): Promise<number>
  /** Wipes the account (keys, procedures, secrets, clock) and re-creates the configured secrets. */
  reset(): Promise<void>
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
  const { secrets = [], server: given, store = createMemoryStore(), ...settings } = options
  const engine = createEngine({ ...settings, store })
  const { account } = engine
  const createSecrets = async (keys: string[]) => {
    for (const key of keys) await account.createSecret({ key })
  }
  await createSecrets(secrets)
  const keys = secrets.length > 0 ? secrets : [(await account.createSecret()).key]
  const handlers = createHandlers(engine)
  const server = given ?? joinSharedServer(handlers)
  given?.use(...handlers)

  return {
    baseUrl: engine.settings.baseUrl,
    serviceName: engine.settings.serviceName,
    engine,
    server,
    secret: keys[0]!,
    createSecret: (key) => account.createSecret(key === undefined ? {} : { key }),
    rollSecret: (id, at) => account.rollSecret(id, at === undefined ? {} : { at }),
    listSecrets: () => account.listSecrets(),
    advanceClock: (seconds) => account.advanceClock(seconds),
    now: () => account.now(),
    reset: async () => {
      await account.reset()
      await createSecrets(keys)
    },
    handlers,
    stop: () => {
      if (!given) leaveSharedServer(handlers)
    },
  }
}
