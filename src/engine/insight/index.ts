/**
 * Authorization insight (decisions 055–057, 087): what a token can reach, the decision for
 * calls without making them, what one token reaches that another does not, coverage of a
 * journal, and the narrowest token for each token's use. Every answer is computed by the code that answers calls.
 */
import type { InsightContext } from './context'
import type { CoverageEntry } from './coverage'
import { diff } from './diff'
import { leastPrivilege, type LeastPrivilegeOptions, type LeastPrivilegeReport } from './least'
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
  /**
   * Every token of the journal `entries`, with the narrowest token for what it did, proven by
   * replaying its calls and by `diff` (decision 087).
   */
  leastPrivilege(
    entries: Iterable<CoverageEntry>,
    options?: LeastPrivilegeOptions,
  ): Promise<LeastPrivilegeReport>
}

export function createInsight(ctx: InsightContext): Insight {
  return {
    reach: (token, at) => reach(ctx, token, at),
    simulate: (token, calls, at) => simulate(ctx, token, calls, at),
    diff: (a, b, at) => diff(ctx, a, b, at),
    leastPrivilege: (entries, options) => leastPrivilege(ctx, entries, options),
  }
}
export * from './coverage'
export * from './least'
