import type { HttpHandler } from 'msw'
import type { SetupServer } from 'msw/node'
import type { Clock, Engine, Limits, Store } from '../engine'
import type { FaultPlanner } from '../engine/operator/fault-match'
import type { ServiceControls } from '../client/service-controls'

/** What a fault does: see `docs/node-api.md`. Without `kind`, a `status` answers in place. */
export type { FaultOptions } from '../engine'

/** What `startService` is given: where it answers, its account as it starts, and msw's server. */
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
