/**
 * Authorization insight (decisions 055–057, 090): what a token can reach, the decision for
 * calls without making them, what one token reaches that another does not, coverage of a
 * journal, and the narrowest token for each token's use. Every answer is computed by the code
 * that answers calls.
 */
import type { Json } from '../store'
import type { InsightContext, InsightRun } from './context'
import type { CoverageEntry } from './coverage'
import { diff } from './diff'
import { leastPrivilege, type LeastPrivilegeOptions, type LeastPrivilegeReport } from './least'
import { reach } from './reach'
import { simulate } from './simulate'
import type {
  DiffReport,
  ReachReport,
  ResourceQuery,
  SimulateCall,
  SimulateReport,
  WatchesReport,
  WhoReachesReport,
} from './types'
import { addWatch, removeWatch, watchesReport } from './watches'
import { whoReaches } from './who-reaches'

export type { InsightContext, InsightRun } from './context'
export * from './types'
export { COUNTERFACTUAL_CODES, counterfactualOf } from '../auth/counterfactual'
export { readResource } from './who-reaches'
export { readWatches, WATCHES, MAX_WATCHES, type Watch } from '../account/watch'

/**
 * The insight of one engine's account. Each takes turns and stops when its client goes away as
 * `run` says (see `InsightRun`).
 */
export interface Insight {
  /** What `token` can do at `at` (Unix seconds; the virtual clock's now by default). */
  reach(token: string, at?: number, run?: InsightRun): Promise<ReachReport>
  /** The decision for each call, as a real call would meet it (408 included), writing nothing. */
  simulate(
    token: string,
    calls: readonly SimulateCall[],
    at?: number,
    run?: InsightRun,
  ): Promise<SimulateReport>
  /** What `b` reaches that `a` does not, and the reverse, each with a call that proves it. */
  diff(a: string, b: string, at?: number, run?: InsightRun): Promise<DiffReport>
  /**
   * Which tokens reach `resource` (the account's secrets, and each of `tokens`), until when and
   * through which ability (decision 088).
   */
  whoReaches(
    resource: ResourceQuery,
    tokens: readonly string[],
    at?: number,
    run?: InsightRun,
  ): Promise<WhoReachesReport>
  /** The watches the account keeps, each asked again now (decision 088). */
  watches(run?: InsightRun): Promise<WatchesReport>
  /** Pins a watch `{token, call, expect, label?}`; answers every watch. */
  addWatch(body: Record<string, Json>, run?: InsightRun): Promise<WatchesReport>
  /** Removes a watch by its id; answers the watches left. */
  removeWatch(id: string, run?: InsightRun): Promise<WatchesReport>
  /**
   * Every token of the journal `entries`, with the narrowest token for what it did, proven by
   * replaying its calls and by `diff` (decision 090).
   */
  leastPrivilege(
    entries: Iterable<CoverageEntry>,
    options?: LeastPrivilegeOptions,
  ): Promise<LeastPrivilegeReport>
}

export function createInsight(ctx: InsightContext): Insight {
  return {
    reach: (token, at, run) => reach(ctx, token, at, run),
    simulate: (token, calls, at, run) => simulate(ctx, token, calls, at, run),
    diff: (a, b, at, run) => diff(ctx, a, b, at, run),
    whoReaches: (resource, tokens, at, run) => whoReaches(ctx, resource, tokens, at, run),
    watches: (run) => watchesReport(ctx, undefined, run),
    addWatch: (body, run) => addWatch(ctx, body, run),
    removeWatch: (id, run) => removeWatch(ctx, id, run),
    leastPrivilege: (entries, options) => leastPrivilege(ctx, entries, options),
  }
}
export * from './coverage'
export * from './least'
