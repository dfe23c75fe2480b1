import { AsyncLocalStorage } from 'node:async_hooks'
import type { FaultPlanner } from '../../engine/operator/fault-match'
import type { FaultRule } from '../../engine/operator/fault-rule'
import { readFaultRule } from '../../engine/operator/read-fault-rule'
import { realTime } from '../../engine/real-time'
import { HANG_BOUND_MS, type ChaosFault } from './address'

/** What a chaos run needs of the service it injects into. */
export interface ChaosTarget {
  plan(planner: FaultPlanner | null): void
  reach(token: string): Promise<{ stops: { at: number | null; because: string | null } }>
  now(): Promise<number>
  advanceClock(seconds: number): Promise<number>
  listSecrets(): Promise<Array<{ id: string; state: string }>>
  rollSecret(id: string): Promise<unknown>
}

/** What a run learns of a hang its client sat through to the bound: the test fails with it. */
export class HungCall extends Error {
  constructor(readonly fault: ChaosFault) {
    super(
      `${fault.endpoint} (call ${fault.nth}) hung, and the client was still waiting after ${HANG_BOUND_MS} ms: with no timeout it would wait forever (chaos cuts a hang at ${HANG_BOUND_MS} ms and fails the run)`,
    )
    this.name = 'HungCall'
  }
}

/** Calls made inside `exempt` (a test's own `service.authorize`) never meet a chaos fault. */
const exemptScope = new AsyncLocalStorage<true>()
export const exempt = <T>(fn: () => T): T => exemptScope.run(true, fn)

/**
 * The planner of one run: counts each endpoint's calls, asks `faultAt` for the fault at each
 * address, and does it: the fault table's kinds as the engine's own rules do them, `expire` by
 * moving the clock past the bearer authorization's expiry first, `throttle` as a rate limiter
 * does (every call sooner than its `retry-after` is answered 429 too), `roll` by rolling the
 * account's active secrets, effective now, before the call. `met` lists, in order, the faults that
 * did something (an `expire` on a call without an expiring token does nothing); `hung` the hangs
 * a client sat through to `HANG_BOUND_MS` without giving up.
 */
export function runPlan(
  target: ChaosTarget,
  faultAt: (endpoint: string, nth: number) => ChaosFault | undefined,
) {
  const calls = new Map<string, number>()
  const met: ChaosFault[] = []
  const hung: ChaosFault[] = []
  /** Until when (the service's clock, seconds) a throttle met holds the account back. */
  let throttledUntil: number | undefined
  const planner: FaultPlanner = async (endpoint, token, role, signal) => {
    if (exemptScope.getStore()) return undefined
    if (throttledUntil !== undefined) {
      // A rate limiter's 429 holds until its retry-after: a call sent sooner meets it again.
      const now = await target.now()
      if (now < throttledUntil) {
        return readFaultRule({
          kind: 'status',
          status: 429,
          retryAfter: Math.max(1, Math.ceil(throttledUntil - now)),
        })
      }
      throttledUntil = undefined
    }
    const nth = (calls.get(endpoint) ?? 0) + 1
    calls.set(endpoint, nth)
    const fault = faultAt(endpoint, nth)
    if (!fault) return undefined
    if (fault.kind === 'expire') {
      if (role !== 'authorization' || token === null) return undefined
      const { stops } = await target.reach(token)
      const now = await target.now()
      if (stops.because !== 'expiry' || stops.at === null || stops.at < now) return undefined
      await target.advanceClock(stops.at - now + 1)
      met.push(fault)
      return undefined
    }
    if (fault.kind === 'roll') {
      const active = (await target.listSecrets()).filter((secret) => secret.state === 'active')
      if (active.length === 0) return undefined
      for (const secret of active) await target.rollSecret(secret.id)
      met.push(fault)
      return undefined
    }
    met.push(fault)
    if (fault.kind === 'hang') {
      // The engine drops the call at the bound, or when the client gives up (its signal aborts):
      // a client that is still waiting at the bound has no timeout.
      const timer = realTime.setTimeout(() => hung.push(fault), HANG_BOUND_MS)
      signal?.addEventListener('abort', () => realTime.clearTimeout(timer), { once: true })
    }
    if (fault.kind === 'throttle') throttledUntil = (await target.now()) + (fault.retryAfter ?? 1)
    return ruleOf(fault)
  }
  return { planner, met, hung }
}

/** The engine's rule for a fault of the fault table's kinds, checked as the control plane does. */
function ruleOf(fault: ChaosFault): Omit<FaultRule, 'id'> {
  const { kind } = fault
  if (kind === 'throttle') {
    return readFaultRule({ kind: 'status', status: 429, retryAfter: fault.retryAfter ?? 1 })
  }
  if (kind === 'status') return readFaultRule({ kind, status: fault.status })
  if (kind === 'delay') return readFaultRule({ kind, delayMs: fault.delayMs ?? 1 })
  // The drop comes a little after the bound: a client still waiting is counted as hung first.
  if (kind === 'hang') return readFaultRule({ kind, delayMs: HANG_BOUND_MS + 20 })
  return readFaultRule({ kind })
}

/** A planner that faults exactly the addresses `faults` lists. */
export function listed(faults: readonly ChaosFault[]) {
  const at = new Map(faults.map((fault) => [`${fault.endpoint}#${fault.nth}`, fault]))
  return (endpoint: string, nth: number) => at.get(`${endpoint}#${nth}`)
}
