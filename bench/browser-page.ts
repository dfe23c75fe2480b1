/**
 * In Chromium, measured in the same page and run (`bench/page/`): a call through the worker into
 * the engine vs the same worker's bare MSW handler, calls interleaved (goal ≤ 1.2× the median);
 * and the key-value store on real IndexedDB vs raw `idb` doing the same, over buckets of 2,000
 * and of 100,000 keys: `keyv.set` one request each vs one `put` each, and a full scan in pages
 * of 250 vs `getAllKeys(range, 250)` pages, rounds interleaved (goal ≥ 0.5 of raw's speed).
 *
 * BENCH_BROWSER_CALLS (300) calls through the worker; BENCH_KEYS (2000,100000) the bucket sizes;
 * BENCH_BROWSER_ROUNDS (5) rounds of BENCH_SETS (200) sets and one full scan each.
 */
import { resolve } from 'node:path'
import { build, preview } from 'vite'
import { launchChromium } from './chromium'
import { machine, median, printTable, saveResults, type Line } from './lib'

const CALLS = Number(process.env.BENCH_BROWSER_CALLS ?? 300)
const SIZES = (process.env.BENCH_KEYS ?? '2000,100000').split(',').map(Number)
const ROUNDS = Number(process.env.BENCH_BROWSER_ROUNDS ?? 5)
const SETS = Number(process.env.BENCH_SETS ?? 200)
// Run from the project's root, as `npm run bench` runs it.
const root = resolve('bench/page')
const publicDir = resolve('public')
const outDir = resolve('node_modules/.bench-page')

await build({
  root,
  publicDir,
  logLevel: 'warn',
  build: { outDir, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 2048 },
})
const server = await preview({
  root,
  build: { outDir },
  preview: { host: '127.0.0.1', port: 0 },
  logLevel: 'warn',
})
const origin = server.resolvedUrls!.local[0]!
const browser = await launchChromium()
const load = machine()
try {
  const page = await browser.newPage()
  await page.goto(origin)
  await page.locator('html[data-ready="true"]').waitFor({ state: 'attached', timeout: 30_000 })
  type Summary = { median: number; p99: number }
  const calls = (await page.evaluate(`workerVsBare(${CALLS})`)) as {
    engine: Summary
    bare: Summary
  }
  const BARE = 'a bare MSW handler'
  printTable(`Chromium: ${CALLS} calls each through the service worker, interleaved, ${load}`, [
    { what: BARE, figure: calls.bare.median, unit: 'ms, median', ratios: { [BARE]: 1 } },
    {
      what: 'an authorized type.string.reverse through the worker into the engine',
      figure: calls.engine.median,
      unit: 'ms, median',
      ratios: { [BARE]: calls.engine.median / calls.bare.median },
      goals: [{ to: BARE, atMost: 1.2 }],
      met: calls.engine.median / calls.bare.median <= 1.2,
      note: `p99 ${calls.engine.p99.toFixed(1)} ms vs ${calls.bare.p99.toFixed(1)} ms`,
    },
  ])

  for (const keys of SIZES) {
    const rounds = (await page.evaluate(`keyvVsIdb(${keys}, ${ROUNDS}, ${SETS})`)) as Record<
      'engineSet' | 'rawSet' | 'rawCountedSet' | 'engineScan' | 'rawScan',
      number[]
    >
    const line = (what: string, mine: number[], theirs: number[], unit: string): Line[] => {
      const ratio = median(mine.map((time, i) => theirs[i]! / time))
      const rawName = `raw idb: ${what}`
      return [
        { what: rawName, figure: median(theirs), unit, ratios: { [rawName]: 1 } },
        {
          what: `engine: ${what}`,
          figure: median(mine),
          unit,
          ratios: { [rawName]: ratio },
          goals: [{ to: rawName, atLeast: 0.5 }],
          met: ratio >= 0.5,
        },
      ]
    }
    printTable(
      `Chromium IndexedDB, a bucket of ${keys.toLocaleString('en')} keys: raw's time over the engine's (a speed ratio), median of ${ROUNDS} interleaved rounds, ${load}`,
      [
        ...line(
          `${SETS} sets, one request or put each`,
          rounds.engineSet,
          rounds.rawSet,
          'ms a set',
        ),
        {
          what: `raw idb doing the engine's write: the old value and the usage read, both written, in one transaction`,
          figure: median(rounds.rawCountedSet),
          unit: 'ms a set',
          ratios: {
            [`raw idb: ${SETS} sets, one request or put each`]: median(
              rounds.rawCountedSet.map((time, i) => rounds.rawSet[i]! / time),
            ),
          },
          note: `the engine at ${median(rounds.engineSet.map((time, i) => rounds.rawCountedSet[i]! / time)).toFixed(2)}× its speed`,
        },
        ...line('a full scan in pages of 250', rounds.engineScan, rounds.rawScan, 'ms a scan'),
      ],
    )
  }
  saveResults('browser-page', { load })
} finally {
  await browser.close()
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()))
}
