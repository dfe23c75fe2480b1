/**
 * Authorization insight (decisions 055–057): what a token can reach, the decision for calls
 * without making them, what one token reaches that another does not, and coverage of a
 * journal. Every answer is computed by the code that answers calls.
 */
import type { InsightContext } from './context'
import { diff } from './diff'
import { reach } from './reach'
import { simulate } from './simulate'
import type { DiffReport, ReachReport, SimulateCall, SimulateReport } from './types'

export type { InsightContext } from './context'
export * from './types'
export { COUNTERFACTUAL_CODES, counterfactualOf } from './counterfactual'

/** The insight of one engine's account. */
export interface Insight {
  /** What `token` can do at `at` (Unix seconds; the virtual clock's now by default). */
  reach(token: string, at?: number): Promise<ReachReport>
  /** The decision for each call, as a real call would meet it, writing nothing. */
  simulate(token: string, calls: readonly SimulateCall[], at?: number): Promise<SimulateReport>
  /** What `b` reaches that `a` does not, and the reverse, each with a call that proves it. */
  diff(a: string, b: string, at?: number): Promise<DiffReport>
}

export function createInsight(ctx: InsightContext): Insight {
  return {
    reach: (token, at) => reach(ctx, token, at),
    simulate: (token, calls, at) => simulate(ctx, token, calls, at),
    diff: (a, b, at) => diff(ctx, a, b, at),
  }
}
export * from './coverage'
