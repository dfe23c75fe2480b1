import type { Principal } from '../auth/principal'
import type { Signer } from '../auth/signer'
import { createManualClock } from '../clock'
import { ServiceError } from '../errors'
import type { CallRequest } from '../lang/tree'
import type { Registry } from '../packages'
import { Evaluation } from '../runtime/evaluate'
import { createOverlay } from '../runtime/overlay'
import type { EndpointSettings } from '../settings'
import type { Store } from '../store'
import { CallTracer, type CallTrace } from '../trace'

/** What a run that writes nothing reads: the account's store, its catalogue, its settings. */
export interface QuietParts {
  store: Store
  registry: Registry
  /** The settings endpoints see (the run puts a clock of its own in them). */
  settings: EndpointSettings
  signer: Signer
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
 * that sleeps without waiting: nothing is written. Simulate answers with it, and a refusal's
 * counterfactual is checked with it (`checked.ts`).
 */
export async function quietRun(
  parts: QuietParts,
  principal: Principal,
  endpoint: string,
  request: CallRequest,
  now: number,
  tracer = new CallTracer(),
): Promise<QuietOutcome> {
  const { store, registry, settings, signer } = parts
  const clock = createManualClock(now * 1000)
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
    },
    (name) => registry.resolve(name, overlay),
    (name) => registry.neighbours(name),
  )
  try {
    await evaluation.run(endpoint, request)
    return { status: 200, error: undefined, calls: tracer.calls }
  } catch (error) {
    return {
      status: error instanceof ServiceError ? error.status : 500,
      error,
      calls: tracer.calls,
    }
  }
}
