/**
 * A failing step's link opened in the built playground, in Debian's Chromium: from the
 * navigation's start until the step's exchange is on screen (its case replayed on a throwaway
 * account, `[data-testid="exchange-detail"]` shown). The link is the last step of the notes
 * example's longest case. Three ways in, per round, in a fresh browser context: a first visit
 * (cold: no worker, no cache), then with the network off a new tab (the worker and its cache,
 * a new page) and a reload of that tab (warm). Medians of `BENCH_ROUNDS` rounds (5 by default);
 * the load average beside them, since the machine is shared.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from '@playwright/test'
import { build, preview } from 'vite'
import { readCaseFile } from '../src/conformance/cases'
import { makeStepLink, stepLinkUrl } from '../src/conformance/link/step-link'
import { launchChromium } from './chromium'
import { machine, median, printTable, saveResults } from './lib'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const BASE = 'https://bench.example.test'
const TIMEOUT_MS = 30_000
/** The goals: on screen this soon from the navigation's start. */
const GOALS = { cold: 2000, warm: 1000 }
const root = process.cwd()
const outDir = mkdtempSync(join(tmpdir(), 'step-link-'))

const contract = readCaseFile(
  'notes.json',
  readFileSync(join(root, 'examples/notes/contracts/notes.json'), 'utf8'),
)
const longest = contract.cases.reduce(
  (best, one, index) => (one.steps.length > contract.cases[best]!.steps.length ? index : best),
  0,
)
const made = await makeStepLink(contract, { caseIndex: longest })

await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true } })
const server = await preview({
  root,
  build: { outDir },
  preview: { host: '127.0.0.1', port: 0, strictPort: false },
  logLevel: 'warn',
})
const origin = server.resolvedUrls!.local[0]!.replace(/\/$/, '')
const url = stepLinkUrl(`${origin}/?baseUrl=${encodeURIComponent(BASE)}`, made.value)
const loadAtStart = machine()
let browser: Browser | undefined

/** Navigates (or reloads) and answers the ms from the navigation's start to the step shown. */
async function opened(page: Page, go: () => Promise<unknown>): Promise<number> {
  await go()
  await page
    .getByTestId('step-link')
    .getByTestId('exchange-detail')
    .waitFor({ state: 'visible', timeout: TIMEOUT_MS })
  return page.evaluate(() => performance.now())
}

try {
  browser = await launchChromium()
  const times = { cold: [] as number[], tab: [] as number[], warm: [] as number[] }
  for (let i = 0; i < ROUNDS; i++) {
    const context = await browser.newContext()
    try {
      const first = await context.newPage()
      times.cold.push(await opened(first, () => first.goto(url)))
      await first.locator('html[data-offline="ready"]').waitFor({ state: 'attached' })
      await context.setOffline(true)
      const tab = await context.newPage()
      times.tab.push(await opened(tab, () => tab.goto(url)))
      times.warm.push(await opened(tab, () => tab.reload()))
    } finally {
      await context.close()
    }
  }
  const line = (what: string, list: number[], goal?: number) => ({
    what,
    figure: median(list),
    unit: 'ms',
    ratios: {},
    ...(goal === undefined ? {} : { met: median(list) < goal, note: `goal < ${goal} ms` }),
  })
  console.log(
    `\nA step's link (${made.payload.case.steps.length} steps, ${url.length - origin.length} characters after the origin), medians of ${ROUNDS} rounds (${loadAtStart} at the start, ${machine()} at the end)`,
  )
  printTable("A step's link opened: from the navigation's start to the step on screen", [
    line('first visit, cold (no worker, no cache)', times.cold, GOALS.cold),
    line('offline, a new tab', times.tab),
    line('offline, the tab reloaded (warm)', times.warm, GOALS.warm),
  ])
  saveResults('step-link', { load: { start: loadAtStart, end: machine() } })
} finally {
  await browser?.close()
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()))
  rmSync(outDir, { recursive: true, force: true })
}
