/**
 * Seeded chaos (decision 091): the example client's six planted bugs searched for under many
 * seeds, in process; each failure found shrunk, then replayed 100 times from its repro. Prints
 * beside their goals: replays that fail again (100 of 100), the median shrunk list (≤ 3 faults),
 * the run the default settings first find each bug at over the whole suite (≤ 500) and what they
 * find with every bug off (nothing), and for a test of about 200 exchanges the reruns (≤ 60) and time (≤ 30 s) shrinking took.
 * `npm run bench -- chaos` (BENCH_SEEDS=<n> seeds per bug, default 10).
 */
import { BUG_NAMES, type Bugs } from '../examples/chaos-client/client'
import { clientOf, scenarios, type Served } from '../examples/chaos-client/scenarios'
import { readChaosOptions } from '../src/kit/chaos/options'
import { ChaosFailure, replayChaos, runChaos, type ChaosFinding } from '../src/kit/chaos/run'
import { startService } from '../src/node'
import { machine, median, printTable, saveResults, type Line } from './lib'

const SEEDS = Number(process.env.BENCH_SEEDS ?? 10)
const REPLAYS = 100
const load = machine()
const service = await startService({ baseUrl: 'https://bench-chaos.example.test' })
const frame = {
  plan: service.plan,
  reach: (token: string) => service.reach(token),
  now: () => service.now(),
  advanceClock: (seconds: number) => service.advanceClock(seconds),
  listSecrets: () => service.listSecrets(),
  rollSecret: (id: string) => service.rollSecret(id),
  checkpoint: () => service.checkpoint(),
  restore: (id: string) => service.restore(id),
}

/** About 200 exchanges: 66 reads and writes of a counter, and the authorization's minting. */
const long = async (served: Served, bugs: Bugs) => {
  const client = clientOf(served, bugs)
  await client.set('count', 0)
  for (let i = 0; i < 66; i++) {
    await client.set('count', ((await client.get('count')) as number) + 1)
  }
  if ((await client.get('count')) !== 66) throw new Error('the count is wrong')
}
const tests: Record<string, (served: Served, bugs: Bugs) => Promise<void>> = {
  ...scenarios,
  'counts to 66 (about 200 exchanges)': long,
}

/** The CPU time (ms) of this process at the end of each run of the test `search` ran last. */
let runEnds: number[] = []
const cpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

async function search(name: string, bugs: Bugs, seed: string, runs: number, rate?: number) {
  const start = await service.checkpoint()
  runEnds = []
  try {
    const settings = readChaosOptions('bench', { seed, runs, ...(rate ? { rate } : {}) })
    await runChaos(frame, name, settings, async () => {
      try {
        await tests[name]!(service, bugs)
      } finally {
        runEnds.push(cpuMs())
      }
    })
    return undefined
  } catch (error) {
    if (error instanceof ChaosFailure) return error.finding
    throw error
  } finally {
    await service.restore(start.id)
  }
}

async function replays(finding: ChaosFinding, bugs: Bugs): Promise<number> {
  let failed = 0
  for (let i = 0; i < REPLAYS; i++) {
    const start = await service.checkpoint()
    try {
      await replayChaos(frame, finding.faults, () => tests[finding.test]!(service, bugs))
    } catch {
      failed++
    }
    await service.restore(start.id)
  }
  return failed
}

const found: Array<{ bug: string; finding: ChaosFinding; replayed: number }> = []
const BUGS = BUG_NAMES
/** The scenario each bug's search runs: a cursor and a rolled secret need a scan. */
const sceneOf = (bug: keyof Bugs) =>
  bug === 'staleSecret' || bug === 'reuseCursor'
    ? 'lists every key, two a page'
    : 'reads back what it wrote'
for (const bug of BUGS) {
  for (let seed = 1; seed <= SEEDS; seed++) {
    const finding = await search(sceneOf(bug), { [bug]: true }, `bench-${seed}`, 50)
    if (finding) found.push({ bug, finding, replayed: await replays(finding, { [bug]: true }) })
  }
}

// The default settings (every kind, rate 0.2) over the whole suite, up to 500 runs a test: the
// run each bug is first found at, and what the same 500 runs find with every bug off.
const DEFAULT_RUNS = 500
const firstFound = new Map<string, number | undefined>()
for (const bug of BUGS) {
  let at: number | undefined
  for (const name of Object.keys(scenarios)) {
    const finding = await search(name, { [bug]: true }, 'defaults', DEFAULT_RUNS)
    if (finding && (at === undefined || finding.run < at)) at = finding.run
  }
  firstFound.set(bug, at === undefined ? undefined : at + 1)
}
let falseAlarms = 0
for (const name of Object.keys(scenarios)) {
  if (await search(name, {}, 'defaults', DEFAULT_RUNS)) falseAlarms++
}
// The long test, at a rate that meets some forty faults a run: what shrinking has to cut. Its
// time is the reruns' (each the client's own test again): beside it, the CPU the shrinking
// took (what a machine to itself would spend, less the hangs and delays a rerun waits out) and
// one run of the test without any fault, timed in the same run, between the shrinkings.
const LONG = 'counts to 66 (about 200 exchanges)'
const longFound: Array<ChaosFinding & { cpuMs: number }> = []
const cleanRunMs: number[] = []
const timeCleanRun = async () => {
  const start = await service.checkpoint()
  const began = performance.now()
  await long(service, {})
  cleanRunMs.push(performance.now() - began)
  await service.restore(start.id)
}
for (let seed = 1; seed <= Math.max(3, Math.ceil(SEEDS / 3)); seed++) {
  await timeCleanRun()
  const finding = await search(LONG, { trustTruncated: true }, `long-${seed}`, 20, 0.2)
  // The shrinking began as the failing run ended, and ended with the last rerun.
  if (finding) longFound.push({ ...finding, cpuMs: runEnds.at(-1)! - runEnds[finding.run]! })
}
await timeCleanRun()
service.stop()

const all = [...found.map(({ finding }) => finding), ...longFound]
const replayedAll = found.every(({ replayed }) => replayed === REPLAYS)
const sizes = all.map((finding) => finding.faults.length)
const line = (what: string, figure: number, unit: string, met: boolean, note: string): Line => ({
  what,
  figure,
  unit,
  ratios: {},
  met,
  note,
})
const byBug = BUGS.map((bug) => {
  const mine = found.filter((f) => f.bug === bug)
  const least = Math.min(...mine.map(({ replayed }) => replayed))
  return `${bug} ${mine.length}/${SEEDS}${mine.length ? `, replayed ≥ ${least}` : ''}`
})
const worst = Math.max(...[...firstFound.values()].map((at) => at ?? Infinity))
printTable(`Seeded chaos, in process: ${SEEDS} seeds × 50 runs per bug, ${load}`, [
  line(
    'default settings: runs a test took to find every planted bug (most)',
    worst,
    'runs',
    worst <= DEFAULT_RUNS,
    `goal ≤ ${DEFAULT_RUNS}; ${[...firstFound].map(([bug, at]) => `${bug} ${at ?? 'never'}`).join(', ')}`,
  ),
  line(
    `default settings: tests failing in ${DEFAULT_RUNS} runs with every bug off`,
    falseAlarms,
    'tests',
    falseAlarms === 0,
    `goal 0, of ${Object.keys(scenarios).length}`,
  ),
  line(
    'failures replayed from their repro, failing again',
    Math.min(...found.map(({ replayed }) => replayed)),
    `of ${REPLAYS} (least)`,
    replayedAll,
    `goal 100 of 100; ${found.length} failures (found: ${byBug.join(', ')})`,
  ),
  line(
    'faults in a shrunk failure (median)',
    median(sizes),
    'faults',
    median(sizes) <= 3,
    `goal ≤ 3; largest ${Math.max(...sizes)}; all 1-minimal: ${all.every((f) => f.minimal)}`,
  ),
  line(
    'reruns to shrink the ~200-exchange test (most)',
    Math.max(...longFound.map((f) => f.reruns)),
    'reruns',
    longFound.every((f) => f.reruns <= 60),
    `goal ≤ 60; ${longFound.length} failures, met ${longFound.map((f) => f.met.length).join(', ')} faults`,
  ),
  line(
    'time to shrink the ~200-exchange test (most)',
    Math.max(...longFound.map((f) => f.shrinkMs)) / 1000,
    's',
    longFound.every((f) => f.shrinkMs <= 30_000),
    `goal ≤ 30 s; each ${longFound.map((f) => `${(f.shrinkMs / 1000).toFixed(1)} s in ${f.reruns} reruns, ${(f.cpuMs / 1000).toFixed(1)} s of CPU`).join('; ')}`,
  ),
  line(
    'a rerun while shrinking, against one run of the test without faults (most)',
    Math.max(...longFound.map((f) => f.shrinkMs / f.reruns)) / median(cleanRunMs),
    '× a clean run',
    true,
    `a clean run took ${median(cleanRunMs).toFixed(0)} ms (median of ${cleanRunMs.length}, ${Math.min(...cleanRunMs).toFixed(0)}–${Math.max(...cleanRunMs).toFixed(0)}): shrinking costs its reruns, each about one run of the client's own test`,
  ),
])
saveResults('chaos', { load })
