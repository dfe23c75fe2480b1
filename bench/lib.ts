/**
 * What every benchmark shares. Figures are medians of repeated rounds, and every row is judged
 * as a ratio to a baseline measured in the same rounds: these machines are shared and noisy, so
 * absolute figures across runs mean little, and a baseline measured once, before the rows, says
 * little about the machine the last rows ran on. Each round runs every row, baselines included,
 * one after the other; a row's ratio is the median over rounds of its figure over its
 * baseline's figure in that same round.
 */
import { writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'

export const BASE = 'https://bench.example.test'

/** The bearer token the raw HTTP baselines (`bench/serve-target.ts`) accept. */
export const RAW_TOKEN = 'bench-raw-token-0123456789'

/** A POST to `path` under `BASE` with a bearer token, as a client sends it. */
export const request = (path: string, token: string, body = '', type = 'text/plain') =>
  new Request(`${BASE}/${path}`, {
    method: 'POST',
    headers: { authorization: `bearer ${token}`, 'content-type': type },
    body,
  })

/**
 * The floor any Fetch-shaped engine pays per call: read a Request's text, reverse it, build a
 * Response.
 */
export async function bare(req: Request): Promise<Response> {
  const text = await req.text()
  return new Response([...text].reverse().join(''), { headers: { 'content-type': 'text/plain' } })
}

/** Reads an answer, failing the benchmark unless it is a 200: a refusal is not a measurement. */
export async function ok(response: Response | Promise<Response>): Promise<string> {
  const answer = await response
  const text = await answer.text()
  if (answer.status !== 200) throw new Error(`${answer.status} ${text}`)
  return text
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/** A ratio a row must stay within: at most (a cost) or at least (a throughput). */
export interface Goal {
  /** The baseline the ratio is taken to (a row's name), or the unit of an absolute goal. */
  to: string
  atMost?: number
  atLeast?: number
  /** The goal is the figure itself, in `to` (`≤ 10 ms`), not a ratio. */
  absolute?: boolean
}

/** A goal met by any one of its alternatives (`≤ 2.5× bare, or ≤ 1.5× the raw store`). */
export type Goals = Goal[]

export interface Row {
  name: string
  /** The rows this one is shown as a ratio to, besides the first; the goals name theirs. */
  baselines?: string[]
  goals?: Goals
  /** Makes the i-th call of this row (i counts across rounds). */
  run: (i: number) => Promise<unknown>
  /** Calls per round; the default given to `interleave` when absent. */
  calls?: number
}

export interface InterleaveOptions {
  /** Calls per round, for rows that do not say. */
  calls: number
  rounds?: number
  /** Calls each row makes before the first round, not measured. */
  warmUp?: number
}

/** What `interleave` found for one row: µs per call in each round. */
export interface Measured {
  row: Row
  rounds: number[]
}

/**
 * Runs every row `rounds` times, interleaved: round 1 runs each row in turn, then round 2, and
 * so on, so that a baseline and the rows judged against it see the same machine.
 */
export async function interleave(
  rows: readonly Row[],
  { calls, rounds = 7, warmUp = Math.min(200, calls) }: InterleaveOptions,
): Promise<Measured[]> {
  const counters = rows.map(() => 0)
  for (const [r, row] of rows.entries()) {
    for (let i = 0; i < Math.min(warmUp, row.calls ?? calls); i++) await row.run(counters[r]!++)
  }
  const measured: Measured[] = rows.map((row) => ({ row, rounds: [] }))
  for (let round = 0; round < rounds; round++) {
    for (const [r, row] of rows.entries()) {
      const n = row.calls ?? calls
      const started = performance.now()
      for (let i = 0; i < n; i++) await row.run(counters[r]!++)
      measured[r]!.rounds.push(((performance.now() - started) * 1000) / n)
      if (process.env.BENCH_VERBOSE) console.error(round, row.name, measured[r]!.rounds.at(-1))
    }
  }
  return measured
}

/** The median over rounds of `a`'s figure over `b`'s in the same round. */
export function ratioOf(a: readonly number[], b: readonly number[]): number {
  return median(a.map((value, i) => value / b[i]!))
}

/** Whether `ratio` meets `goal`. */
export const meets = (ratio: number, goal: Goal): boolean =>
  (goal.atMost === undefined || ratio <= goal.atMost) &&
  (goal.atLeast === undefined || ratio >= goal.atLeast)

export const goalText = (goal: Goal): string => {
  const times = goal.absolute ? ' ' : '× '
  return goal.atMost !== undefined
    ? `≤ ${goal.atMost}${times}${goal.to}`
    : `≥ ${goal.atLeast}${times}${goal.to}`
}

/** One line of a results table: a row, its figure, its ratios, its goal and whether it is met. */
export interface Line {
  what: string
  figure: number
  unit: string
  /** Ratios to each baseline, by the baseline's name. */
  ratios: Record<string, number>
  goals?: Goals
  met?: boolean
  /** Anything else worth printing beside the figure. */
  note?: string
}

/** The lines of a table from `interleave`'s rounds: every row against the first and its own. */
export function linesOf(measured: readonly Measured[], unit = 'µs/call'): Line[] {
  const byName = new Map(measured.map((m) => [m.row.name, m.rounds]))
  const first = measured[0]!
  return measured.map(({ row, rounds }) => {
    const names = [first.row.name, ...(row.baselines ?? []), ...(row.goals ?? []).map((g) => g.to)]
    const ratios: Record<string, number> = {}
    for (const name of new Set(names)) {
      const base = byName.get(name)
      if (!base) throw new Error(`${row.name}: no baseline row ${name}`)
      ratios[name] = ratioOf(rounds, base)
    }
    const line: Line = { what: row.name, figure: median(rounds), unit, ratios }
    if (row.goals) {
      line.goals = row.goals
      line.met = row.goals.some((goal) => meets(ratios[goal.to]!, goal))
    }
    return line
  })
}

const fixed = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(0))

/**
 * Prints a Markdown table: each row's figure (median of rounds), its ratios to its baselines,
 * and its goal beside it, met or not. Also keeps the table for `BENCH_OUT` (`saveResults`).
 */
export function printTable(title: string, lines: readonly Line[]): void {
  tables.push({ title, lines: [...lines] })
  console.log(`\n### ${title}\n`)
  console.log(`| what | ${lines[0]?.unit ?? ''} | ratio | goal | met | note |`)
  console.log('| --- | ---: | --- | --- | --- | --- |')
  for (const line of lines) {
    const ratios = Object.entries(line.ratios)
      .filter(([name]) => name !== line.what)
      .map(([name, ratio]) => `${ratio.toFixed(2)}× ${name}`)
      .join('; ')
    const goal = line.goals?.map(goalText).join(', or ') ?? ''
    const met = line.met === undefined ? '' : line.met ? 'met' : '**NOT met**'
    console.log(
      `| ${line.what} | ${fixed(line.figure)} | ${ratios} | ${goal} | ${met} | ${line.note ?? ''} |`,
    )
  }
}

const tables: Array<{ title: string; lines: Line[] }> = []

/** The one-minute load average, and the cores: said beside every run, since the cores are shared. */
export function machine(): string {
  const [one, five] = loadavg()
  return `load average ${one!.toFixed(1)} (5 min ${five!.toFixed(1)})`
}

/**
 * Writes every table printed so far, as JSON, to `$BENCH_OUT/<name>.json` when `BENCH_OUT` is
 * set: `bench/report.ts` turns two such directories into the before/after tables of
 * docs/performance.md.
 */
export function saveResults(name: string, extra: Record<string, unknown> = {}): void {
  const dir = process.env.BENCH_OUT
  if (!dir) return
  writeFileSync(`${dir}/${name}.json`, JSON.stringify({ name, tables, ...extra }, null, 2))
}
