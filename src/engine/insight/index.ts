/**
 * Authorization insight (decisions 055–057): what a token can reach, the decision for calls
 * without making them, what one token reaches that another does not, and coverage of a
 * journal. Every answer is computed by the code that answers calls.
 */
import type { Json } from '../store'
import type { InsightContext } from './context'
import { diff } from './diff'
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

export type { InsightContext } from './context'
export * from './types'
export { COUNTERFACTUAL_CODES, counterfactualOf } from './counterfactual'
export { readResource } from './who-reaches'
export { readWatches, WATCHES, MAX_WATCHES, type Watch } from './watch'

/** The insight of one engine's account. */
export interface Insight {
  /** What `token` can do at `at` (Unix seconds; the virtual clock's now by default). */
  reach(token: string, at?: number): Promise<ReachReport>
  /** The decision for each call, as a real call would meet it, writing nothing. */
  simulate(token: string, calls: readonly SimulateCall[], at?: number): Promise<SimulateReport>
  /** What `b` reaches that `a` does not, and the reverse, each with a call that proves it. */
  diff(a: string, b: string, at?: number): Promise<DiffReport>
  /**
   * Which tokens reach `resource` (the account's secrets, and each of `tokens`), until when and
   * through which ability (decision 086).
   */
  whoReaches(
    resource: ResourceQuery,
    tokens: readonly string[],
    at?: number,
  ): Promise<WhoReachesReport>
  /** The watches the account keeps, each asked again now (decision 086). */
  watches(): Promise<WatchesReport>
  /** Pins a watch `{token, call, expect, label?}`; answers every watch. */
  addWatch(body: Record<string, Json>): Promise<WatchesReport>
  /** Removes a watch by its id; answers the watches left. */
  removeWatch(id: string): Promise<WatchesReport>
}

export function createInsight(ctx: InsightContext): Insight {
  return {
    reach: (token, at) => reach(ctx, token, at),
    simulate: (token, calls, at) => simulate(ctx, token, calls, at),
    diff: (a, b, at) => diff(ctx, a, b, at),
    whoReaches: (resource, tokens, at) => whoReaches(ctx, resource, tokens, at),
    watches: () => watchesReport(ctx),
    addWatch: (body) => addWatch(ctx, body),
    removeWatch: (id) => removeWatch(ctx, id),
  }
}
export * from './coverage'
