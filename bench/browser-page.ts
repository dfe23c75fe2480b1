/**
 * In Chromium, measured in the same page and run: a call through the worker into the engine vs
 * the same worker's bare MSW handler (goal: ≤ 1.3× the median), and the key-value store on real
 * IndexedDB (sets, then a full scan in pages of 250) vs raw `idb` doing the same (goal ≥ 0.5).
 */
import { fileURLToPath } from 'node:url'
import { build, preview } from 'vite'
import { launchChromium } from './chromium'

const CALLS = Number(process.env.BENCH_BROWSER_CALLS ?? 300)
const KEYS = Number(process.env.BENCH_KEYS ?? 2_000)
const root = fileURLToPath(new URL('./page/', import.meta.url))
const publicDir = fileURLToPath(new URL('../public/', import.meta.url))
const outDir = fileURLToPath(new URL('../node_modules/.bench-page/', import.meta.url))

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
try {
  const page = await browser.newPage()
  await page.goto(origin)
  await page.locator('html[data-ready="true"]').waitFor({ state: 'attached', timeout: 30_000 })
  type Summary = { median: number; p99: number }
  const calls = (await page.evaluate(`workerVsBare(${CALLS})`)) as {
    engine: Summary
    bare: Summary
  }
  console.log(
    `\nChromium, ${CALLS} calls each, interleaved: through the worker into the engine vs a bare MSW handler`,
  )
  console.log(
    `  median: engine ${calls.engine.median.toFixed(2)} ms, bare ${calls.bare.median.toFixed(2)} ms, ratio ${(calls.engine.median / calls.bare.median).toFixed(2)}`,
  )
  console.log(
    `  p99:    engine ${calls.engine.p99.toFixed(2)} ms, bare ${calls.bare.p99.toFixed(2)} ms`,
  )
  const keyv = (await page.evaluate(`keyvVsIdb(${KEYS})`)) as Record<string, number>
  console.log(
    `\nChromium IndexedDB, ${KEYS} keys: the engine in the page vs raw idb (throughput ratio, goal ≥ 0.5)`,
  )
  console.log(
    `  set:  engine ${keyv.engineSet!.toFixed(0)} ms, idb ${keyv.rawSet!.toFixed(0)} ms, ratio ${(keyv.rawSet! / keyv.engineSet!).toFixed(2)}`,
  )
  console.log(
    `  scan: engine ${keyv.engineScan!.toFixed(0)} ms, idb ${keyv.rawScan!.toFixed(0)} ms, ratio ${(keyv.rawScan! / keyv.engineScan!).toFixed(2)}`,
  )
} finally {
  await browser.close()
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()))
}
