import { recordOf, type ExchangeRecord } from '../operator/exchange-log'
import type { BranchInfo } from './branches'
import type { History } from './history'
import type { Step } from './step'
import { mintedToken } from '../operator/minted-token'

/** How many exchanges of each branch a comparison shows, from where they part. */
export const COMPARED_EXCHANGES = 200

/**
 * Two branches from where they part (decision 086): each one's exchanges since (newest first,
 * as the journal lists them), the first pair that differs (in request or answer), and the
 * authorizations each minted since, to compare with the token diff.
 */
export interface BranchComparison {
  a: BranchInfo
  b: BranchInfo
  /** The last exchange both share; `null` when they part before any. */
  fork: number | null
  exchanges: { a: ExchangeRecord[]; b: ExchangeRecord[] }
  /** How many exchanges each has since the fork (more than are shown past 200). */
  counts: { a: number; b: number }
  /** The first pair, in order since the fork, whose request or answer differs. */
  first: { index: number; a: number | null; b: number | null } | null
  /** Authorizations each branch's `auth.create` answered since the fork. */
  tokens: { a: string[]; b: string[] }
}

const recorded = (step: Step): ExchangeRecord | undefined =>
  step.entry && step.exchange !== undefined
    ? { id: step.entry.id, ...recordOf(step.entry.exchange) }
    : undefined

/** What a request or an answer is, for telling two apart: not its id, its time or its headers' order. */
const sameExchange = (a: ExchangeRecord, b: ExchangeRecord) =>
  a.request.method === b.request.method &&
  a.request.url === b.request.url &&
  a.request.body?.data === b.request.body?.data &&
  a.response.status === b.response.status &&
  a.response.body?.data === b.response.body?.data

export function compareBranches(history: History, a: string, b: string): BranchComparison {
  const list = history.list()
  const parting = history.parting(a, b)
  const shared = history.steps(a).slice(0, parting.fork)
  let fork: number | null = null
  for (const step of shared) if (step.exchange !== undefined) fork = step.exchange
  const side = (steps: readonly Step[]) => {
    const all = steps.filter((step) => step.exchange !== undefined)
    const records = all.map(recorded)
    return { all, records }
  }
  const left = side(parting.a)
  const right = side(parting.b)
  let first: BranchComparison['first'] = null
  for (let i = 0; i < Math.max(left.all.length, right.all.length); i++) {
    const x = left.records[i]
    const y = right.records[i]
    if (x && y && sameExchange(x, y)) continue
    first = { index: i, a: left.all[i]?.exchange ?? null, b: right.all[i]?.exchange ?? null }
    break
  }
  const shown = (records: Array<ExchangeRecord | undefined>) =>
    records
      .filter((record): record is ExchangeRecord => record !== undefined)
      .slice(-COMPARED_EXCHANGES)
      .reverse()
  const tokens = (records: Array<ExchangeRecord | undefined>) =>
    records.flatMap((record) => {
      const token = record && mintedToken(record)
      return token ? [token] : []
    })
  return {
    a: list.branches.find((branch) => branch.id === a)!,
    b: list.branches.find((branch) => branch.id === b)!,
    fork,
    exchanges: { a: shown(left.records), b: shown(right.records) },
    counts: { a: left.all.length, b: right.all.length },
    first,
    tokens: { a: tokens(left.records), b: tokens(right.records) },
  }
}
