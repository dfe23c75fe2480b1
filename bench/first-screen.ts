/**
 * The first screen of the built playground in Debian's Chromium, cold (a fresh browser context:
 * no service worker, no cache) and warm (a reload in the same context). Per round, timed in the
 * page from the navigation's start: the first contentful paint, the worker ready
 * (`html[data-ready="true"]`) and the first `core.ping` the engine answers through the worker.
 * Medians of `BENCH_ROUNDS` rounds (5 by default).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { build, preview } from 'vite'
import { launchChromium } from './chromium'
import { median } from './lib'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const BASE = 'https://bench.example.test'
const PING = `${BASE}/core/ping`
// Run from the project's root, as `npm run bench` runs it.
const root = process.cwd()
// Built apart from dist/, which the Playwright server may be serving.
const outDir = mkdtempSync(join(tmpdir(), 'first-screen-'))

interface Marks {
  paint: number
  ready: number
  ping: number
}

/**
 * Runs in the page before its own scripts: notes when `data-ready` appears and then sends
 * `core.ping` without a token. The engine answers it (401, the same work cold or warm): the
 * answer proves the worker and the engine serve the page.
 */
const probe = `(() => {
  const marks = (window.__firstScreen = {})
  const observer = new MutationObserver(() => {
    if (document.documentElement?.dataset.ready !== 'true') return
    observer.disconnect()
    marks.ready = performance.now()
    fetch(${JSON.stringify(PING)}, { method: 'POST' }).then(async (response) => {
      const body = await response.text()
      marks.status = response.status
      marks.body = body
      marks.ping = performance.now()
    })
  })
  observer.observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] })
})()`

await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true } })
const server = await preview({
  root,
  build: { outDir },
  preview: { host: '127.0.0.1', port: 0, strictPort: false },
  logLevel: 'warn',
})
const origin = server.resolvedUrls!.local[0]!.replace(/\/$/, '')
const url = `${origin}/?baseUrl=${encodeURIComponent(BASE)}`
const browser = await launchChromium()

async function marks(page: Page): Promise<Marks> {
  await page.waitForFunction('window.__firstScreen?.ping !== undefined', null, { timeout: 30_000 })
  const seen = (await page.evaluate(`({
    ...window.__firstScreen,
    paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
  })`)) as Marks & { status: number; body: string }
  if (seen.status !== 401 || !seen.body.includes('authorization')) {
    throw new Error(`core.ping was not answered by the engine: ${seen.status} ${seen.body}`)
  }
  return seen
}

try {
  const cold: Marks[] = []
  const warm: Marks[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const context = await browser.newContext()
    await context.addInitScript(probe)
    const errors: string[] = []
    const page = await context.newPage()
    page.on('console', (message) => {
      // Chromium logs every non-2xx answer; the probe's own 401 is expected.
      const probed = message.location().url === PING && message.text().includes('status of 401')
      if (message.type() === 'error' && !probed) errors.push(message.text())
    })
    page.on('pageerror', (error) => errors.push(String(error)))
    await page.goto(url)
    cold.push(await marks(page))
    await page.reload()
    warm.push(await marks(page))
    await context.close()
    if (errors.length > 0) throw new Error(`errors in the page:\n${errors.join('\n')}`)
  }

  const row = (what: string, pick: (m: Marks) => number) => {
    const c = median(cold.map(pick))
    const w = median(warm.map(pick))
    return `| ${what.padEnd(36)} | ${c.toFixed(0).padStart(7)} | ${w.toFixed(0).padStart(7)} | ${(w / c).toFixed(2).padStart(9)} |`
  }
  console.log(`\nFirst screen in Chromium, medians of ${ROUNDS} rounds, ms from navigation start`)
  console.log(
    `| ${'what'.padEnd(36)} | ${'cold'.padStart(7)} | ${'warm'.padStart(7)} | warm/cold |`,
  )
  console.log(`| ${'-'.repeat(36)} | ${'-'.repeat(7)} | ${'-'.repeat(7)} | --------- |`)
  console.log(row('first contentful paint', (m) => m.paint))
  console.log(row('worker ready (data-ready)', (m) => m.ready))
  console.log(row('first core.ping answered', (m) => m.ping))
} finally {
  await browser.close()
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()))
  rmSync(outDir, { recursive: true, force: true })
}
