/**
 * Rewind (decision 086), in Node over the memory store and SQLite, and in Chromium over real
 * IndexedDB (`bench/page/`): an account of 10,000 keys, 10,000 exchanges of history (1,000 of
 * them minting its 1,000 authorizations), and rewinds to before exchanges drawn uniformly among
 * all 10,000, timed alone; p95 beside its goal (≤ 10 ms in Node, ≤ 50 ms in Chromium). Writes
 * land on a working set of 200 keys, as a suite's do; the worst case, every write on a key of
 * its own, is shown beside it. And what the history costs per call: each kind of call with the
 * journal alone against the journal and the history, interleaved (goal ≤ 1.1×).
 *
 * BENCH_REWINDS (100) rewinds per store in Node, BENCH_BROWSER_REWINDS (60) in Chromium.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { build, preview } from 'vite'
import { createEngine, type Engine } from '../src/engine'
import { createLocalOperator } from '../src/engine/operator/local'
import { defaultLimits } from '../src/engine/settings'
import type { Store } from '../src/engine/store'
import { nodeHmac } from '../src/server/node-hmac'
import { createMemoryStore } from '../src/storage'
import { openSqliteStore } from '../src/storage/sql/sqlite-store'
import { launchChromium } from './chromium'
import {
  BASE,
  interleave,
  linesOf,
  machine,
  printTable,
  request,
  saveResults,
  type Line,
} from './lib'
import { fill, play, quantile, rewinds } from './rewind-workload'

const REWINDS = Number(process.env.BENCH_REWINDS ?? 100)
const BROWSER_REWINDS = Number(process.env.BENCH_BROWSER_REWINDS ?? 60)
const WORKING_SET = 200
const ALL_KEYS = 10_000

const dir = mkdtempSync(join(tmpdir(), 'bench-rewind-'))
let files = 0
const stores: Array<[string, () => Promise<Store>]> = [
  ['memory', async () => createMemoryStore()],
  ['SQLite', () => openSqliteStore(join(dir, `${++files}.db`))],
]

async function account(store: Store): Promise<{ engine: Engine; secret: string }> {
  await store.commit(fill())
  const engine = createEngine({ store, baseUrl: BASE, hmac: nodeHmac, exchangeLog: 10_000 })
  const [secret] = await engine.start()
  return { engine, secret: secret! }
}

/** A line of p95 against its goal in milliseconds, with the median and the worst beside it. */
function rewindLine(what: string, times: number[], goal: number): Line {
  const p95 = quantile(times, 0.95)
  return {
    what,
    figure: p95,
    unit: 'ms, p95',
    ratios: {},
    goals: [{ to: 'ms', atMost: goal, absolute: true }],
    met: p95 <= goal,
    note: `median ${quantile(times, 0.5).toFixed(2)} ms, worst ${Math.max(...times).toFixed(1)} ms, ${times.length} rewinds`,
  }
}

try {
  const load = machine()
  const lines: Line[] = []
  for (const [name, open] of stores) {
    for (const [spread, label] of [
      [WORKING_SET, `writes on ${WORKING_SET} keys`],
      [ALL_KEYS, 'every write on a key of its own (worst case)'],
    ] as const) {
      const store = await open()
      const { engine, secret } = await account(store)
      const ids = await play(engine, secret, spread)
      lines.push(rewindLine(`${name}: ${label}`, await rewinds(engine, ids, REWINDS), 10))
      await store.close()
    }
  }
  printTable(
    `Node: rewind to before any of the last 10,000 exchanges, 10,000 keys (${load})`,
    lines,
  )

  // What the history costs per call: the journal alone (its controls kept without a timeline,
  // so no history) against the journal and the history, each over an account of its own.
  const engines = await Promise.all(
    [false, true].map(async (history) => {
      const modes = { strict: false, journal: 10_000, rateLimit: defaultLimits.rateLimit }
      const operator = createLocalOperator(modes)
      if (!history) delete (operator as { timeline?: unknown }).timeline
      const engine = createEngine({
        store: createMemoryStore(),
        baseUrl: BASE,
        hmac: nodeHmac,
        exchangeLog: 10_000,
        operator,
      })
      const [secret] = await engine.start()
      return { engine, secret: secret! }
    }),
  )
  const kinds: Array<[string, (i: number) => [string, string?]]> = [
    ['keyv.set', (i) => [`keyv/set?bucket=b&key=k${i % 500}&value=${i}`]],
    ['keyv.get', (i) => [`keyv/get?bucket=b&key=k${i % 500}`]],
    ['auth.create', () => ['auth/create?abilities=keyv.get']],
  ]
  const rows = kinds.flatMap(([kind, path]) => {
    const send = ({ engine, secret }: { engine: Engine; secret: string }, i: number) =>
      engine.handle(request(path(i)[0]!, secret)).then((response) => response.arrayBuffer())
    const alone = `${kind}, the journal alone`
    return [
      { name: alone, run: (i: number) => send(engines[0]!, i) },
      {
        name: `${kind}, the journal and the history`,
        goals: [{ to: alone, atMost: 1.1 }],
        run: (i: number) => send(engines[1]!, i),
      },
    ]
  })
  const measured = await interleave(rows, {
    calls: 2000,
    rounds: Number(process.env.BENCH_ROUNDS ?? 7),
  })
  printTable(`Node: what the history costs per call, over memory (${machine()})`, linesOf(measured))

  // Chromium, over real IndexedDB, in the benchmark page.
  const root = resolve('bench/page')
  const outDir = resolve('node_modules/.bench-page')
  await build({
    root,
    publicDir: resolve('public'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 2048 },
  })
  const server = await preview({
    root,
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0 },
    logLevel: 'warn',
  })
  const browser = await launchChromium()
  try {
    const page = await browser.newPage()
    await page.goto(server.resolvedUrls!.local[0]!)
    await page.locator('html[data-ready="true"]').waitFor({ state: 'attached', timeout: 30_000 })
    const browserLines: Line[] = []
    for (const [spread, label] of [
      [WORKING_SET, `writes on ${WORKING_SET} keys`],
      [ALL_KEYS, 'every write on a key of its own (worst case)'],
    ] as const) {
      const times = (await page.evaluate(`rewindInPage(${spread}, ${BROWSER_REWINDS})`)) as number[]
      browserLines.push(rewindLine(`IndexedDB: ${label}`, times, 50))
    }
    printTable(
      `Chromium: rewind to before any of the last 10,000 exchanges, 10,000 keys (${machine()})`,
      browserLines,
    )
  } finally {
    await browser.close()
    server.httpServer.close()
  }
  saveResults('rewind')
} finally {
  rmSync(dir, { recursive: true, force: true })
}
