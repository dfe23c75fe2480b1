/**
 * Least privilege (decision 090): the whole report of a journal of 100,000 entries — every token
 * grouped, its narrowest token suggested, flagged, and proven by replaying its calls and by
 * `diff` — beside its goal (< 2 s), and beside coverage of the same entries measured in the same
 * rounds. The entries are distinct objects, as a file read whole gives them: 1,000 varied
 * exchanges of 20 tokens (allowed, refused by an ability, by a limit, inside compositions),
 * parsed again 100 times. Then 10^6 entries, to show the bound holds.
 * `npm run bench -- least-privilege`.
 */
import { createEngine, createManualClock, type Engine, type ExchangeRecord } from '../src/engine'
import { collectUse } from '../src/engine/insight/least/use'
import { coverageReport, tallyCoverage } from '../src/engine/insight'
import { createMemoryStore } from '../src/storage'
import { BASE, machine, median, printTable, request, saveResults, type Line } from './lib'
import { engineOptions } from './platform'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const ENTRIES = 100_000
const GOAL_MS = 2000

const vnd = 'application/vnd.service+json'
const tuples = (args: Record<string, unknown>, input?: unknown) =>
  JSON.stringify([
    ...(input === undefined ? [] : [['>>', input]]),
    ...Object.entries(args).map(([name, value]) => ['$$', name, value]),
  ])

async function journalOf(): Promise<ExchangeRecord[]> {
  const engine: Engine = createEngine({
    store: createMemoryStore(),
    baseUrl: BASE,
    clock: createManualClock(),
    exchangeLog: 1000,
    ...engineOptions,
  })
  const { key } = await engine.account.createSecret()
  const shapes = [
    ['type', 'keyv?bucket=notes'],
    ['type.string', 'keyv.get?bucket=users&prefix=alice/'],
    ['core', 'keyv'],
    ['keyv.get', 'keyv.set', 'core.exec'],
  ]
  const tokens: string[] = []
  for (let i = 0; i < 20; i++) {
    const answer = await engine.handle(
      request('auth/create', key, tuples({ abilities: shapes[i % shapes.length], ttl: 3600 }), vnd),
    )
    tokens.push(((await answer.json()) as [[string, string]])[0][1])
    // Minted at another moment: tokens alike in abilities and times are one token to the report.
    engine.settings.clock.advance(1000)
  }
  const calls = [
    (t: string) => request('type/string/reverse', t, 'abc'),
    (t: string, i: number) =>
      request('keyv/get', t, tuples({ bucket: 'notes', key: `todo/${i % 7}` }), vnd),
    (t: string, i: number) =>
      request('keyv/set', t, tuples({ bucket: 'users', key: `alice/${i % 5}`, value: i }), vnd),
    (t: string) => request('core/ping', t),
    (t: string, i: number) =>
      request(
        'core/exec',
        t,
        tuples({
          proc: ['{}', ['()', 'keyv.get', ['$$', 'bucket', 'notes'], ['$$', 'key', `x${i % 3}`]]],
        }),
        vnd,
      ),
  ]
  for (let i = 0; i < 1000; i++) {
    await engine.handle(calls[i % calls.length]!(tokens[i % tokens.length]!, i))
    engine.settings.clock.advance(50)
  }
  return engine.operator.journal.list()
}

/** Medians of `rounds` timed runs of each of `work`, interleaved, in milliseconds. */
async function timed(
  work: Record<string, () => Promise<unknown>>,
  rounds = ROUNDS,
): Promise<Record<string, number>> {
  const times: Record<string, number[]> = {}
  for (const run of Object.values(work)) await run()
  for (let i = 0; i < rounds; i++) {
    for (const [name, run] of Object.entries(work)) {
      const started = performance.now()
      await run()
      ;(times[name] ??= []).push(performance.now() - started)
    }
  }
  return Object.fromEntries(Object.entries(times).map(([name, t]) => [name, median(t)]))
}

const load = machine()
const records = await journalOf()
const text = JSON.stringify(records)
const entries: ExchangeRecord[] = []
while (entries.length < ENTRIES) entries.push(...(JSON.parse(text) as ExchangeRecord[]))
entries.length = ENTRIES
// The report is asked of an account like the one the command line makes: fresh, one secret.
const prover = createEngine({
  store: createMemoryStore(),
  clock: createManualClock(),
  ...engineOptions,
})
await prover.account.createSecret()
const tokens = collectUse(entries).groups.size
const figures = await timed({
  coverage: async () => coverageReport(tallyCoverage(entries)),
  report: () => prover.insight.leastPrivilege(entries),
  analysis: async () => collectUse(entries),
})
const million = await timed(
  {
    million: () =>
      prover.insight.leastPrivilege(
        (function* () {
          for (let i = 0; i < 10; i++) yield* entries
        })(),
      ),
  },
  1,
)
const line = (what: string, figure: number, goal?: number, note = ''): Line => ({
  what,
  figure,
  unit: 'ms',
  ratios: { 'coverage of the same entries': figure / figures.coverage! },
  ...(goal === undefined ? {} : { met: figure < goal }),
  note: goal === undefined ? note : `goal < ${goal} ms${note ? `; ${note}` : ''}`,
})
printTable(`Least privilege: median of ${ROUNDS} interleaved runs, ${load}`, [
  line('coverage of the same entries', figures.coverage!),
  line(
    `reading ${ENTRIES.toLocaleString('en')} entries into ${tokens} tokens' use`,
    figures.analysis!,
  ),
  line(
    `the report of ${ENTRIES.toLocaleString('en')} entries: ${tokens} tokens suggested, flagged and proven`,
    figures.report!,
    GOAL_MS,
  ),
  line(
    'the report of 10^6 entries (one run)',
    million.million!,
    undefined,
    'bounded: read once, kept per token',
  ),
])
saveResults('least-privilege', { load })
