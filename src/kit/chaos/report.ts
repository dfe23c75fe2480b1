// The report of a chaos run (decision 103): tests × runs, and the failures grouped by their
// shrunk cause, each with its repro and the exchange the failure turned on (its endpoint, its
// answer, the engine's decision trace and what would have let it in). Pure: what a run found
// in, text, JUnit cases and groups out; the reporter prints and writes them.
import { tokenOf } from '../../client/exchange'
import type { CaseResult } from '../../conformance/run'
import { traceText } from '../../conformance/trace-text'
import type { ExchangeRecord } from '../../engine'
import { faultText } from './address'
import { REPRO_VARIABLE } from './repro'
import type { ChaosFinding } from './run'

/** The exchange a chaos failure turned on, as the report shows it. */
export interface ChaosExchange {
  endpoint: string
  status: number
  /** The engine's code and message, or the fault the exchange met (`x-fault`). */
  reason: string
  /** The fault's kind when the exchange met one. */
  fault?: string
  /** What would have let it in, when the engine refused it. */
  counterfactual?: string
  /** The engine's decision trace, a line each. */
  trace: string[]
}

/** One test of a chaos run: the runs it took and, when it failed, the failure shrunk. */
export interface ChaosOutcome {
  test: string
  runs: number
  finding?: ChaosFinding
  /** The exchange the failure turned on, from one more run with exactly the shrunk faults. */
  exchange?: ChaosExchange
  /** The test failed with no fault at all: its own failure, not chaos's. */
  ownFailure?: string
}

/** Failures of one shrunk cause: the same faults, whichever tests met them. */
export interface ChaosGroup {
  /** The shrunk faults as a repro writes them (`keyv.get#1:throttle/1`). */
  cause: string[]
  outcomes: ChaosOutcome[]
}

const firstLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''

/** Where a request went: the endpoint the engine read, else its method and path. */
function endpointOf(exchange: ExchangeRecord): string {
  if (exchange.trace.endpoint) return exchange.trace.endpoint
  return `${exchange.request.method} ${new URL(exchange.request.url).pathname}`
}

const faultOf = (exchange: ExchangeRecord) =>
  exchange.response.headers.find(([name]) => name.toLowerCase() === 'x-fault')?.[1]

/**
 * Of a run's exchanges, the one its failure turned on: the last one the engine refused by its
 * rules (an expired token, a rolled secret: it has a counterfactual), else the last one that met
 * a fault, else the last answered 400 or more.
 */
export function exchangeThatMatters(
  exchanges: readonly ExchangeRecord[],
): ChaosExchange | undefined {
  const ordered = [...exchanges].sort((a, b) => a.id - b.id).reverse()
  const chosen =
    ordered.find((e) => e.response.status >= 400 && !faultOf(e)) ??
    ordered.find((e) => faultOf(e) !== undefined) ??
    ordered.find((e) => e.response.status >= 400)
  if (!chosen) return undefined
  const fault = faultOf(chosen)
  const { code, message, counterfactual } = chosen.trace.outcome
  const sentence = counterfactual?.sentence ?? chosen.trace.credential?.counterfactual?.sentence
  return {
    endpoint: endpointOf(chosen),
    status: chosen.response.status,
    reason:
      [code, message].filter(Boolean).join(': ') ||
      (fault ? `the fault ${fault}` : `answered ${chosen.response.status}`),
    ...(fault ? { fault } : {}),
    ...(sentence ? { counterfactual: sentence } : {}),
    trace: traceText(chosen.trace),
  }
}

/** The bearer tokens of a run's exchanges: what the reporter keeps out of all it writes. */
export const bearersOf = (exchanges: readonly ExchangeRecord[]): string[] =>
  exchanges.flatMap((exchange) => tokenOf(exchange) ?? [])

/** The failures grouped by their shrunk faults, the group most tests met first. */
export function groupByCause(outcomes: readonly ChaosOutcome[]): ChaosGroup[] {
  const groups = new Map<string, ChaosGroup>()
  for (const outcome of outcomes) {
    if (!outcome.finding) continue
    const cause = outcome.finding.faults.map(faultText)
    const key = cause.join(' ')
    const group = groups.get(key) ?? { cause, outcomes: [] }
    group.outcomes.push(outcome)
    groups.set(key, group)
  }
  return [...groups.values()].sort((a, b) => b.outcomes.length - a.outcomes.length)
}

/** The totals: `3 tests × 20 runs (58 runs), 2 failed in 1 cause`. */
export function chaosTotals(outcomes: readonly ChaosOutcome[], runs: number): string {
  const ran = outcomes.reduce((sum, outcome) => sum + outcome.runs, 0)
  const failed = outcomes.filter((outcome) => outcome.finding).length
  const own = outcomes.filter((outcome) => outcome.ownFailure !== undefined).length
  const causes = groupByCause(outcomes).length
  const tests = `${outcomes.length} test${outcomes.length === 1 ? '' : 's'}`
  return [
    `${tests} × ${runs} runs (${ran} run${ran === 1 ? '' : 's'})`,
    failed === 0
      ? 'no failure found'
      : `${failed} failed, in ${causes} cause${causes === 1 ? '' : 's'}`,
    ...(own > 0 ? [`${own} failed without any fault (the test's own failure)`] : []),
  ].join(', ')
}

/** The repro line of a finding, as a person pastes it before the test command. */
export const reproLine = (finding: ChaosFinding) => `${REPRO_VARIABLE}='${finding.repro}'`

/** The exchange a failure turned on, as lines: its answer, what would pass, its trace. */
export function exchangeLines(exchange: ChaosExchange | undefined): string[] {
  if (!exchange) return ['no exchange was refused or faulted: the client failed on its own']
  return [
    `${exchange.endpoint} answered ${exchange.status}: ${exchange.reason}`,
    ...(exchange.counterfactual ? [`would pass with: ${exchange.counterfactual}`] : []),
    'decision trace:',
    ...exchange.trace,
  ]
}

/** The report printed at the end of a chaos run: the totals, then each cause with its tests. */
export function chaosReportText(seed: string, runs: number, outcomes: readonly ChaosOutcome[]) {
  const lines = [`chaos (seed ${seed}): ${chaosTotals(outcomes, runs)}`]
  groupByCause(outcomes).forEach((group, i) => {
    const first = group.outcomes[0]!
    const minimal = group.outcomes.every((outcome) => outcome.finding!.minimal)
    lines.push(
      `  cause ${i + 1}: ${group.cause.join(' ')}${minimal ? ' (1-minimal)' : ' (not proven minimal)'}`,
      ...exchangeLines(first.exchange).map((line) => `    ${line}`),
      ...group.outcomes.map(
        (outcome) =>
          `    ✗ ${outcome.test} (run ${outcome.finding!.run}): ${firstLine(outcome.finding!.cause)}`,
      ),
      `    repro: ${reproLine(first.finding!)}`,
    )
  })
  return lines.join('\n')
}

/**
 * The run as JUnit cases, one per test: a failed one's message is its shrunk cause and the
 * exchange it turned on; its text, the repro and the decision trace. `credentials` (the
 * account's secrets, the tokens presented) are written by their names, never their values.
 */
export function chaosCases(
  outcomes: readonly ChaosOutcome[],
  credentials: CaseResult['credentials'],
): CaseResult[] {
  return outcomes.map((outcome) => {
    const base = { id: outcome.test, steps: 0, ms: 0, stepResults: [], credentials }
    if (outcome.ownFailure !== undefined) {
      return { ...base, status: 'failed', reason: `without any fault: ${outcome.ownFailure}` }
    }
    const { finding, exchange } = outcome
    if (!finding) return { ...base, status: 'passed' }
    const cause = finding.faults.map(faultText).join(' ')
    const where = exchange
      ? `: ${exchange.endpoint} answered ${exchange.status} (${exchange.reason})${exchange.counterfactual ? `; would pass with: ${exchange.counterfactual}` : ''}`
      : ''
    return {
      ...base,
      ms: finding.shrinkMs,
      status: 'failed',
      reason: `chaos run ${finding.run} failed with ${cause}${where}`,
      detail: [
        `failed: ${firstLine(finding.cause)}`,
        `shrunk from ${finding.met.length} faults to ${finding.faults.length}${finding.minimal ? ' (1-minimal)' : ' (the rerun budget ran out first)'} in ${finding.reruns} reruns: ${cause}`,
        `repro: ${reproLine(finding)}`,
        '',
        ...exchangeLines(exchange),
      ].join('\n'),
    } satisfies CaseResult
  })
}
