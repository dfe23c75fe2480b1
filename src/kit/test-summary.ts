// The kit's helpers in a CI job (decision 092): when `GITHUB_STEP_SUMMARY` is set, a test that
// failed leaves a section on the job's page saying what it called on the service and each
// answer the service refused, with the endpoint, the reason and what would have let it in.
import { appendSummary, cell, fenced, markdownTable, summaryFile } from '../conformance/job-summary'
import { tokenOf } from '../client/exchange'
import type { ExchangeRecord } from '../engine'
import type { ContractSource } from './contract'
import type { ChaosSettings } from './chaos/options'
import { chaosTotals, groupByCause, reproLine, type ChaosOutcome } from './chaos/report'

/** One refused answer of a failed test, as its section shows it. */
export interface SummarizedRefusal {
  endpoint: string
  status: number
  reason: string
  counterfactual?: string
}

/** Where a request went: the endpoint the engine read, else its method and path. */
function endpointOf(exchange: ExchangeRecord): string {
  if (exchange.trace.endpoint) return exchange.trace.endpoint
  return `${exchange.request.method} ${new URL(exchange.request.url).pathname}`
}

/** The refusals among `exchanges` (any answer of 400 or more), in the order they were made. */
export function refusalsOf(exchanges: readonly ExchangeRecord[]): SummarizedRefusal[] {
  return [...exchanges]
    .sort((a, b) => a.id - b.id)
    .filter((e) => e.response.status >= 400)
    .map((e) => {
      const { code, message, counterfactual } = e.trace.outcome
      return {
        endpoint: endpointOf(e),
        status: e.response.status,
        reason: [code, message].filter(Boolean).join(': ') || `answered ${e.response.status}`,
        ...(counterfactual ? { counterfactual: counterfactual.sentence } : {}),
      }
    })
}

/** The engine's texts quote as `this': their backticks as themselves, not code spans. */
const literal = (text: string) => text.replace(/`/g, '\\`')

/** A failed test's section: the calls it made, by endpoint, and each refusal in a table. */
export function failedTestSummary(name: string, exchanges: readonly ExchangeRecord[]): string {
  const counts = new Map<string, number>()
  for (const e of [...exchanges].sort((a, b) => a.id - b.id)) {
    counts.set(endpointOf(e), (counts.get(endpointOf(e)) ?? 0) + 1)
  }
  const refusals = refusalsOf(exchanges)
  const calls = [...counts].map(([endpoint, n]) => `\`${endpoint}\` ×${n}`).join(', ')
  const lines = [
    `### ❌ ${cell(name)}`,
    '',
    exchanges.length === 0
      ? 'The test failed without calling the service.'
      : `The test failed after ${exchanges.length} call${exchanges.length === 1 ? '' : 's'} to the service (${calls}); ${refusals.length === 0 ? 'none was refused.' : `${refusals.length} refused:`}`,
  ]
  if (refusals.length > 0) {
    lines.push(
      '',
      markdownTable(
        ['endpoint', 'status', 'reason', 'would pass with'],
        refusals.map((r) => [
          `\`${r.endpoint}\``,
          String(r.status),
          literal(r.reason),
          literal(r.counterfactual ?? ''),
        ]),
      ),
    )
  }
  return lines.join('\n')
}

/** The bearer tokens the test's requests carried: none may reach a summary. */
const bearers = (exchanges: readonly ExchangeRecord[]) => exchanges.flatMap((e) => tokenOf(e) ?? [])

/**
 * When the job has a summary (`GITHUB_STEP_SUMMARY`), appends a failed test's section: its
 * calls since `after` (the journal's last id before it began) and its refusals. The account's
 * secrets and every token the test presented are withheld by `appendSummary`'s grep.
 */
export async function summarizeFailedTest(
  source: ContractSource,
  test: { name: string; after?: number },
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const file = summaryFile(undefined, env)
  if (!file) return
  let read: [Awaited<ReturnType<ContractSource['journal']>>, Array<{ key: string }>]
  try {
    read = await Promise.all([source.journal(test.after || undefined), source.secrets()])
  } catch (error) {
    // The test's own failure stands; the summary says why it has no calls to show.
    const why = (error as Error).message.split('\n')[0] ?? ''
    appendSummary(file, `### ❌ ${cell(test.name)}\n\nIts calls could not be read: ${cell(why)}`)
    return
  }
  const [{ capacity, exchanges }, secrets] = read
  const markdown =
    capacity === 0
      ? `### ❌ ${cell(test.name)}\n\nThe service's journal is off (\`journal: 0\`): its calls are not known.`
      : failedTestSummary(test.name, exchanges)
  appendSummary(file, markdown, [...secrets.map((s) => s.key), ...bearers(exchanges)])
}

/**
 * A chaos run's section (decision 103): tests × runs, then each cause its failures shrank to, a
 * row each (the faults, the tests, the exchange the failure turned on: endpoint, status, reason,
 * what would have let it in), and each cause's repro.
 */
export function chaosSummary(
  file: string,
  settings: Pick<ChaosSettings, 'seed' | 'runs'>,
  outcomes: readonly ChaosOutcome[],
): string {
  const groups = groupByCause(outcomes)
  const lines = [
    `### ${groups.length === 0 ? '✅' : '🌀'} chaos in ${cell(file)} (seed ${cell(settings.seed)})`,
    '',
    `${chaosTotals(outcomes, settings.runs)}.`,
  ]
  if (groups.length === 0) return lines.join('\n')
  lines.push(
    '',
    markdownTable(
      ['cause (shrunk faults)', 'tests', 'endpoint', 'status', 'reason', 'would pass with'],
      groups.map((group) => {
        const exchange = group.outcomes[0]!.exchange
        return [
          group.cause.map((fault) => `\`${fault}\``).join(' '),
          group.outcomes
            .map((outcome) => literal(outcome.test.split(' › ').slice(1).join(' › ')))
            .join('<br>'),
          exchange ? `\`${exchange.endpoint}\`` : '',
          exchange ? String(exchange.status) : '',
          literal(exchange?.reason ?? 'no exchange was refused or faulted'),
          literal(exchange?.counterfactual ?? ''),
        ]
      }),
    ),
  )
  groups.forEach((group, i) => {
    const first = group.outcomes[0]!.finding!
    lines.push(
      '',
      `Repro of cause ${i + 1} (${literal(first.test)}):`,
      '',
      fenced(reproLine(first), 'sh'),
    )
  })
  return lines.join('\n')
}

/**
 * When the job has a summary (`GITHUB_STEP_SUMMARY`), appends a file's chaos section; `held`
 * (the secrets and tokens the runs met) are withheld by `appendSummary`'s grep.
 */
export function summarizeChaos(
  file: string,
  settings: Pick<ChaosSettings, 'seed' | 'runs'>,
  outcomes: readonly ChaosOutcome[],
  held: Iterable<string>,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  const summary = summaryFile(undefined, env)
  if (!summary) return true
  return appendSummary(summary, chaosSummary(file, settings, outcomes), held)
}
