/**
 * Whether a call costs as much after 5,000 calls as at the start, through the engine over each
 * store: the memory store, SQLite (a file) and IndexedDB (fake-indexeddb). The calls of the
 * store contract's load check (`src/testing/store-contract/load-calls.ts`), five kinds in turn;
 * the median of the last window of them is read against the first window of the same calls
 * over a fresh store of the same kind, measured just before it, so that the machine's load
 * moving between the two windows is not read as the store's growth.
 */
import 'fake-indexeddb/auto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { IDBFactory } from 'fake-indexeddb'
import type { Store } from '../src/engine/store'
import { createMemoryStore, openIdbStore } from '../src/storage'
import { openSqliteStore } from '../src/storage/sql/sqlite-store'
import { createHarness } from '../src/testing/engine-harness'
import { loadCalls } from '../src/testing/store-contract/load-calls'
import { machine, median, printTable, saveResults, type Line } from './lib'

const CALLS = Number(process.env.BENCH_CALLS ?? 5000)
const WINDOW = Number(process.env.BENCH_WINDOW ?? 400)
/** The last window may cost at most this many times the first. */
const GROWTH = 1.3

type Call = Awaited<ReturnType<typeof loadCalls>>

/** The median ms of calls `from` to `to` - 1, failing the benchmark on any answer but a 200. */
async function window(call: Call, from: number, to: number): Promise<number> {
  const durations: number[] = []
  for (let i = from; i < to; i++) {
    const started = performance.now()
    const answer = await call(i)
    durations.push(performance.now() - started)
    if (answer.status !== 200) throw new Error(`call ${i}: ${answer.status} ${answer.text}`)
  }
  return median(durations)
}

/** The first window of calls over a fresh store from `open`: the baseline of the moment. */
async function baseline(open: () => Promise<Store>): Promise<number> {
  const store = await open()
  try {
    return await window(await loadCalls(await createHarness({ store })), 0, WINDOW)
  } finally {
    await store.close()
  }
}

const dir = mkdtempSync(join(tmpdir(), 'bench-store-load-'))
let files = 0
const stores: Array<[string, () => Promise<Store>]> = [
  ['memory', async () => createMemoryStore()],
  ['SQLite', () => openSqliteStore(join(dir, `load-${files++}.db`))],
  ['IndexedDB', () => openIdbStore('load', { indexedDB: new IDBFactory() })],
]
const lines: Line[] = []
try {
  for (const [name, open] of stores) {
    const store = await open()
    try {
      const call = await loadCalls(await createHarness({ store }))
      const first = await window(call, 0, WINDOW)
      await window(call, WINDOW, CALLS - WINDOW)
      const fresh = await baseline(open)
      const last = await window(call, CALLS - WINDOW, CALLS)
      const growth = last / fresh
      const FRESH = `${name}: calls 1–${WINDOW} of a fresh store, just before`
      lines.push({
        what: `${name}: calls ${CALLS - WINDOW + 1}–${CALLS}`,
        figure: last,
        unit: 'ms/call',
        ratios: { [FRESH]: growth },
        goals: [{ to: FRESH, atMost: GROWTH }],
        met: growth <= GROWTH,
        note: `calls 1–${WINDOW} of this store: ${first.toFixed(3)} ms; fresh: ${fresh.toFixed(3)} ms`,
      })
    } finally {
      await store.close()
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
const load = machine()
printTable(`${CALLS} calls through the engine, median of ${WINDOW}, ${load}`, lines)
saveResults('store-load', { load })
