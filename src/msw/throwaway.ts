import { createEngine, type Engine } from '../engine'
import { createMemoryStore } from '../storage'

export interface ThrowawayOptions {
  /** Where the account answers: its endpoints below it, its control plane at `_account/`. */
  baseUrl: string
  serviceName: string
  /** How many exchanges its journal keeps. */
  exchangeLog: number
}

/**
 * A throwaway account's engine: over memory, started as `serve` starts one (a secret of its
 * own, which a reset brings back). Nothing it holds outlives the page, and it never sees the
 * page's own account.
 */
export async function startThrowawayEngine(options: ThrowawayOptions): Promise<Engine> {
  const engine = createEngine({ store: createMemoryStore(), ...options })
  await engine.start()
  return engine
}

/**
 * A throwaway account answered in this page, as a `fetch` of its own: each request goes
 * through the engine's one door (`handle`), as the service worker would hand it over, without
 * the worker's round trip. A request outside the account's base URL is the engine's to refuse
 * (404), never sent anywhere. For replays that need no other tab to reach the account: a
 * shared step's (decision 106).
 */
export async function throwawayFetch(
  options: ThrowawayOptions,
): Promise<(request: Request) => Promise<Response>> {
  const engine = await startThrowawayEngine(options)
  return (request) => engine.handle(request)
}
