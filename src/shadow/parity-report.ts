/**
 * The parity report: per endpoint and body format, how many exchanges agreed and which did not,
 * each with the request and both answers (tokens as their roles: the shadow redacts everything
 * before it reaches here), in JSON and as text a person reads.
 */
import type { AnswerDifference } from './answers'

/** What became of one exchange. */
export type Outcome = 'agreed' | 'differs' | 'unknown-state' | 'noise' | 'follows'

/** A request as a report shows it: the headers that matter, the body readable. */
export interface ShownRequest {
  method: string
  /** The path below the base URL, with its query. */
  path: string
  headers: Record<string, string>
  body: string
}

export interface ShownAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/** Whether the upstream was asked the same again, and what it said. */
export type AskedAgain =
  | 'same answer'
  | 'a different answer'
  | 'not asked: it writes'
  | 'not asked: the rate limit'
  | 'not asked'

/** One exchange on which the two answers were not the same. */
export interface ReportedExchange {
  exchange: number
  /** `#12`, or the case and step it was in (`notes.json › lists notes › step 3`). */
  label: string
  endpoint: string
  format: string
  outcome: Exclude<Outcome, 'agreed'>
  differences: AnswerDifference[]
  /** Why it is not counted as the engine's difference (`unknown-state`, `follows`, `noise`). */
  because?: string
  /** What of the upstream's answer was compared, when it was only its first bytes. */
  compared?: string
  askedAgain: AskedAgain
  /** For an answer the engine refused: what would have let it in, by the engine's rules. */
  counterfactual?: string
  request: ShownRequest
  upstream: ShownAnswer
  engine: ShownAnswer
  /** The contract file `verify` replays it with, for a difference of the engine's. */
  contract?: string
  /** The differing step as a link (decision 093), made from its contract. */
  link?: string
  /** Why no contract was written for it. */
  noContract?: string
}

export interface ReportRow {
  endpoint: string
  format: string
  agreed: number
  differs: number
  unknownState: number
  noise: number
  follows: number
}

const COLUMN: Record<Outcome, keyof Omit<ReportRow, 'endpoint' | 'format'>> = {
  agreed: 'agreed',
  differs: 'differs',
  'unknown-state': 'unknownState',
  noise: 'noise',
  follows: 'follows',
}

const HEADINGS: Record<ReportedExchange['outcome'], string> = {
  differs: 'DIFFERS',
  'unknown-state': 'upstream state unknown to the engine',
  noise: 'noise (not the engine’s)',
  follows: 'follows from an earlier difference',
}

export interface ParityReportJson {
  upstream: string
  serviceName: string
  startedAt: string
  endedAt: string
  totals: Record<Outcome, number> & { exchanges: number; notCompared: number }
  notCompared: Record<string, number>
  /**
   * Compared exchanges whose upstream answer was longer than the shadow keeps: compared by its
   * first bytes (`COMPARED_BODY_BYTES`).
   */
  comparedByPrefix: number
  rows: ReportRow[]
  exchanges: ReportedExchange[]
}

export class ParityReport {
  private readonly rows = new Map<string, ReportRow>()
  private readonly skipped = new Map<string, number>()
  private readonly reported: ReportedExchange[] = []
  private readonly startedAt = new Date()
  private prefixes = 0
  /** Held still: nothing more is counted (the shadow stopped, the report is being written). */
  private frozen = false

  constructor(
    readonly upstream: string,
    readonly serviceName: string,
  ) {}

  /** Counts one compared exchange. */
  count(endpoint: string, format: string, outcome: Outcome): void {
    if (this.frozen) return
    const key = `${endpoint}\u0000${format}`
    let row = this.rows.get(key)
    if (!row) {
      row = { endpoint, format, agreed: 0, differs: 0, unknownState: 0, noise: 0, follows: 0 }
      this.rows.set(key, row)
    }
    row[COLUMN[outcome]]++
  }

  /** Counts `n` exchanges (one by default) passed to the client but not compared, and why. */
  notCompared(reason: string, n = 1): void {
    if (this.frozen) return
    this.skipped.set(reason, (this.skipped.get(reason) ?? 0) + n)
  }

  /** Counts one exchange compared by the first bytes of the upstream's answer. */
  comparedPrefix(): void {
    if (!this.frozen) this.prefixes++
  }

  /** Counts nothing more from now on. */
  freeze(): void {
    this.frozen = true
  }

  add(exchange: ReportedExchange): void {
    if (this.frozen) return
    this.count(exchange.endpoint, exchange.format, exchange.outcome)
    this.reported.push(exchange)
  }

  /** The exchanges that did not agree, in the order they were made. */
  get exchanges(): readonly ReportedExchange[] {
    return [...this.reported].sort((a, b) => a.exchange - b.exchange)
  }

  /** How many exchanges differed by the engine's fault. */
  get differences(): number {
    return this.reported.filter((r) => r.outcome === 'differs').length
  }

  toJSON(): ParityReportJson {
    const rows = [...this.rows.values()].sort(
      (a, b) => a.endpoint.localeCompare(b.endpoint) || a.format.localeCompare(b.format),
    )
    const sum = (column: keyof Omit<ReportRow, 'endpoint' | 'format'>) =>
      rows.reduce((total, row) => total + row[column], 0)
    const notCompared = [...this.skipped.values()].reduce((total, n) => total + n, 0)
    const totals = {
      agreed: sum('agreed'),
      differs: sum('differs'),
      'unknown-state': sum('unknownState'),
      noise: sum('noise'),
      follows: sum('follows'),
    }
    return {
      upstream: this.upstream,
      serviceName: this.serviceName,
      startedAt: this.startedAt.toISOString(),
      endedAt: new Date().toISOString(),
      totals: {
        exchanges: Object.values(totals).reduce((a, b) => a + b, 0) + notCompared,
        ...totals,
        notCompared,
      },
      notCompared: Object.fromEntries([...this.skipped].sort(([a], [b]) => a.localeCompare(b))),
      comparedByPrefix: this.prefixes,
      rows,
      exchanges: this.exchanges as ReportedExchange[],
    }
  }

  /** The report as text: the totals, the table, then every exchange that did not agree. */
  text(): string {
    const json = this.toJSON()
    const { totals } = json
    const lines = [
      `shadow parity report: upstream ${json.upstream}, service \`${json.serviceName}'`,
      `${totals.exchanges} exchanges: ${totals.agreed} agreed, ${totals.differs} differ, ${totals['unknown-state']} upstream state unknown to the engine, ${totals.noise} noise, ${totals.follows} follow from an earlier difference, ${totals.notCompared} not compared`,
    ]
    if (json.rows.length > 0) {
      const width = Math.max(8, ...json.rows.map((row) => row.endpoint.length))
      const cells = ['agreed', 'differ', 'unknown', 'noise', 'follows']
      lines.push(
        '',
        `${'endpoint'.padEnd(width)}  ${'format'.padEnd(7)}  ${cells.map((c) => c.padStart(7)).join('  ')}`,
      )
      for (const row of json.rows) {
        const counts = [row.agreed, row.differs, row.unknownState, row.noise, row.follows]
        lines.push(
          `${row.endpoint.padEnd(width)}  ${row.format.padEnd(7)}  ${counts.map((n) => String(n).padStart(7)).join('  ')}`,
        )
      }
    }
    if (totals.notCompared > 0) {
      lines.push(
        '',
        `not compared (passed to the client as they came): ${Object.entries(json.notCompared)
          .map(([reason, n]) => `${n} ${reason}`)
          .join('; ')}`,
      )
    }
    if (json.comparedByPrefix > 0) {
      lines.push(
        '',
        `compared by their first bytes (the upstream's answer was longer than the shadow keeps): ${json.comparedByPrefix}`,
      )
    }
    for (const r of json.exchanges) lines.push('', ...exchangeText(r))
    return `${lines.join('\n')}\n`
  }
}

/** One reported exchange as text. */
export function exchangeText(r: ReportedExchange): string[] {
  const lines = [
    `${r.label} ${r.endpoint} [${r.format}] ${HEADINGS[r.outcome]}${r.because ? `: ${r.because}` : ''}`,
  ]
  for (const d of r.differences) lines.push(`    ${differenceText(d)}`)
  if (r.compared) lines.push(`    compared: ${r.compared}`)
  if (r.counterfactual) lines.push(`    it would have passed with: ${r.counterfactual}`)
  lines.push(`    asked the upstream again: ${r.askedAgain}`)
  if (r.contract)
    lines.push(`    contract: ${r.contract} (npx service-playground verify ${r.contract})`)
  if (r.link) lines.push(`    link (${r.link.length} characters): ${r.link}`)
  if (r.noContract) lines.push(`    no contract: ${r.noContract}`)
  const { request } = r
  lines.push(`    | ${request.method} ${request.path}`)
  for (const [name, value] of Object.entries(request.headers)) lines.push(`    | ${name}: ${value}`)
  if (request.body) lines.push('    |', ...request.body.split('\n').map((line) => `    | ${line}`))
  for (const [side, answer] of [
    ['upstream', r.upstream],
    ['engine', r.engine],
  ] as const) {
    lines.push(`    ${side} answered ${answer.status}`)
    for (const [name, value] of Object.entries(answer.headers))
      lines.push(`    | ${name}: ${value}`)
    if (answer.body) lines.push('    |', ...answer.body.split('\n').map((line) => `    | ${line}`))
  }
  return lines
}

export const differenceText = ({ what, upstream, engine }: AnswerDifference) =>
  `${what}: upstream ${upstream}, engine ${engine}`
