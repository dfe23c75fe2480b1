import type { Principal } from '../auth/principal'
import type { Random } from '../auth/random'
import type { Signer } from '../auth/signer'
import type { Clock } from '../clock'
import { ClientGoneError, ServiceError } from '../errors'
import type { CallRequest } from '../lang/tree'
import type { Registry } from '../packages'
import { Evaluation } from '../runtime/evaluate'
import { createOverlay } from '../runtime/overlay'
import type { EndpointSettings } from '../settings'
import type { Store } from '../store'
import { CallTracer, type CallTrace } from '../trace'
import type { InsightRun } from './context'

/** What a run that writes nothing reads: the account's store, its catalogue, its settings. */
export interface QuietParts {
  store: Store
  registry: Registry
  /** The settings endpoints see (the run puts a clock of its own in them). */
  settings: EndpointSettings
  signer: Signer
  /** Where its random values come from: the account's generator; the platform's by default. */
  random?: Random
}

/** How a quiet run ended: its status, the error it stopped with, every call traced. */
export interface QuietOutcome {
  status: number
  error: unknown
  calls: CallTrace[]
}

/**
 * Evaluates `request` at `endpoint` for `principal` at `now`, as a real call would be evaluated
 * once its token is let in, over an overlay that is never committed and on a clock of its own
 * (`simulatedClock`), under the real call's time limit: nothing is written. Simulate answers
 * with it, and a refusal's counterfactual is checked with it (`checked.ts`). It takes turns as
 * `run` says, and stops (`ClientGoneError`, thrown) when its client goes away.
 */
export async function quietRun(
  parts: QuietParts,
  principal: Principal,
  endpoint: string,
  request: CallRequest,
  now: number,
  run: InsightRun = {},
): Promise<QuietOutcome> {
  const { store, registry, settings, signer, random } = parts
  const clock = simulatedClock(now * 1000, settings.clock)
  const tracer = new CallTracer()
  // Never flushed: what the call would write is dropped with the overlay.
  const overlay = createOverlay(store, async () => undefined)
  const evaluation = new Evaluation(
    {
      settings: { ...settings, clock },
      store: overlay,
      clock,
      signer,
      principal,
      setHeader: () => undefined,
      tracer,
      ...(random ? { random } : {}),
      ...(run.pause ? { pause: run.pause } : {}),
      ...(run.signal ? { signal: run.signal } : {}),
    },
    (name) => registry.resolve(name, overlay),
    (name) => registry.neighbours(name),
  )
  try {
    await evaluation.run(endpoint, request)
    return { status: 200, error: undefined, calls: tracer.calls }
  } catch (error) {
    if (error instanceof ClientGoneError) throw error
    return {
      status: error instanceof ServiceError ? error.status : 500,
      error,
      calls: tracer.calls,
    }
  }
}

/**
 * The clock a quiet run runs on: it starts at the moment asked about and moves as the
 * engine's own clock does while the call computes (or waits for its turn), and by what the call
 * sleeps, at once. So the time limit stops it where it would stop the real call, which sleeps
 * and computes on one clock; a quiet `core.sleep` takes no time.
 */
export function simulatedClock(startMs: number, real: Clock): Clock {
  const began = real.now()
  let slept = 0
  const clock: Clock = {
    now: () => startMs + (real.now() - began) + slept,
    async sleep(ms) {
      await Promise.resolve()
      slept += Math.max(0, ms)
    },
    advance(ms) {
      slept += ms
    },
    get offset() {
      return slept
    },
  }
  return clock
}
