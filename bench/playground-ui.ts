/**
 * The playground's views under load, in Debian's Chromium, on the built page: the exchange
 * log holding 10,000 exchanges (opened, searched, one exchange opened, its coverage counted,
 * the first screen with that log stored, and a reload into the log until its first row), the
 * log opened over 100,000 (ten times what the page keeps), what a secret can do with 1,000 stored procedures,
 * and a megabyte pasted into the console's input. Each figure is the median of `BENCH_ROUNDS`
 * rounds (5 by default), beside a baseline taken in the same rounds: the same step over a log of
 * 50 exchanges or one procedure, or a first screen with an empty log. The load average
 * is printed beside the figures, since the machine is shared.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { build, preview } from 'vite'
import { launchChromium } from './chromium'
import { machine, median, printTable, saveResults, type Line } from './lib'
import { loggedExchanges, seedPageLog } from './page-log'
import { timed } from './page-timing'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const BASE = 'https://bench-ui.example.test'
const MANY = 10_000
const FEW = 50
/** Ten times what the page keeps: its first rows must not wait for the rest. */
const HUGE = 100_000
const PROCEDURES = 1000
const root = process.cwd()
const outDir = mkdtempSync(join(tmpdir(), 'playground-ui-'))

await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true } })
const server = await preview({
  root,
  build: { outDir },
  preview: { host: '127.0.0.1', port: 0, strictPort: false },
  logLevel: 'warn',
})
const origin = server.resolvedUrls!.local[0]!.replace(/\/$/, '')
const loadAtStart = machine()
const browser = await launchChromium()

/** Fills the page's own log with `count` exchanges made from the ones the engine logged. */
async function fillLog(page: Page, count: number): Promise<void> {
  await seedPageLog(page, BASE, await loggedExchanges(page, BASE), count)
}

/** Stored procedures on the page's account, by an import of its export with `count` of them. */
async function storeProcedures(page: Page, count: number) {
  return page.evaluate(
    async ({ base, count }) => {
      const json = { 'content-type': 'application/json' }
      const snapshot = (await (await fetch(`${base}/_account/export`)).json()) as {
        secrets: Array<{ id: string }>
        procs: Array<{ name: string }>
      }
      const proc = {
        name: 'p',
        proc: ['{}', ['()', 'core.ping']],
        createdAt: 1,
        updatedAt: 1,
      }
      snapshot.procs = Array.from({ length: count }, (_, i) => ({ ...proc, name: `p${i}` }))
      const imported = await fetch(`${base}/_account/import`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(snapshot),
      })
      if (!imported.ok) throw new Error(`import: ${imported.status} ${await imported.text()}`)
      const catalogue = (await (await fetch(`${base}/_account/endpoints`)).json()) as unknown[]
      return { secretId: snapshot.secrets[0]!.id, endpoints: catalogue.length + count }
    },
    { base: BASE, count },
  )
}

const ready = (page: Page) =>
  page.locator('html[data-ready="true"]').waitFor({ state: 'attached', timeout: 30_000 })

const CLICK_LOG = `[...document.querySelectorAll('nav[aria-label="Views"] a')].find((a) => a.textContent === 'Exchange log').click()`
const ROWS = `document.querySelectorAll('[data-testid="exchange-row"]').length > 0`
const SEARCH = `(() => {
  const input = [...document.querySelectorAll('label')].find((l) => l.textContent === 'Text in the request or answer').control
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, 'user/7')
  input.dispatchEvent(new Event('input', { bubbles: true }))
})()`
const SEARCHED = `(() => {
  const rows = [...document.querySelectorAll('[data-testid="exchange-row"]')]
  return new URLSearchParams(location.hash.split('?')[1]).get('text') === 'user/7' && rows.length > 0 && rows.every((row) => row.textContent.includes('user/7'))
})()`
const OPEN = `document.querySelector('[data-testid="exchange-row"] a').click()`
const CLICK_COVERAGE = CLICK_LOG.replace("'Exchange log'", "'Coverage'")
const COUNTED = (calls: number) =>
  `document.querySelector('[data-testid="coverage-read"]')?.textContent.startsWith('From ${calls} calls')`
const OPENED = `document.querySelector('[data-testid="exchange-detail"]') !== null`
const USABLE = `[...document.querySelectorAll('main button')].some((b) => b.textContent === 'Create secret' && !b.disabled) && document.querySelector('main table.secrets') !== null`
const PASTE = `(() => {
  const input = [...document.querySelectorAll('label')].find((l) => l.textContent === 'Input').control
  Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(input, 'x'.repeat(1024 * 1024))
  input.dispatchEvent(new Event('input', { bubbles: true }))
})()`
const PASTE_SMALL = PASTE.replace('1024 * 1024', '1024')
const PASTED = `document.querySelector('[data-testid="plan-body"]')?.textContent.length >= 1024`

/** One round: every row, each over a log of `FEW` and of `MANY`. */
async function round(): Promise<Record<string, number>> {
  const context = await browser.newContext()
  const page = await context.newPage()
  const figures: Record<string, number> = {}
  try {
    for (const [size, count] of [
      ['few', FEW],
      ['many', MANY],
    ] as const) {
      await page.goto(`${origin}/?baseUrl=${encodeURIComponent(BASE)}#/secrets`)
      await ready(page)
      await fillLog(page, count)
      // The first screen with that log stored.
      await page.evaluate(() => (window.location.hash = '#/secrets'))
      await page.reload()
      // From the navigation's start, as bench/first-screen.ts measures it.
      const usable = await page.waitForFunction(`(${USABLE}) && performance.now()`, null, {
        timeout: 30_000,
        polling: 'raf',
      })
      figures[`first screen, log of ${size}`] = (await usable.jsonValue()) as number
      await ready(page)
      figures[`open the log, ${size}`] = await timed(page, CLICK_LOG, ROWS)
      figures[`search the log, ${size}`] = await timed(page, SEARCH, SEARCHED)
      figures[`open an exchange, ${size}`] = await timed(page, OPEN, OPENED)
      figures[`coverage of the log, ${size}`] = await timed(page, CLICK_COVERAGE, COUNTED(count))
      // A reload into the log, from the navigation's start to its first row.
      await page.evaluate(() => (window.location.hash = '#/log'))
      await page.reload()
      const row = await page.waitForFunction(`(${ROWS}) && performance.now()`, null, {
        timeout: 60_000,
        polling: 'raf',
      })
      figures[`reload into the log, ${size}`] = (await row.jsonValue()) as number
    }
    // Far past what the page keeps (a log written by an older page, or by hand): opening the
    // log and its first rows must not wait for all of it.
    await page.goto(`${origin}/?baseUrl=${encodeURIComponent(BASE)}#/secrets`)
    await ready(page)
    await fillLog(page, HUGE)
    await page.reload()
    await ready(page)
    figures['open the log, huge'] = await timed(page, CLICK_LOG, ROWS)
    await page.reload()
    const row = await page.waitForFunction(`(${ROWS}) && performance.now()`, null, {
      timeout: 60_000,
      polling: 'raf',
    })
    figures['reload into the log, huge'] = (await row.jsonValue()) as number
    // The view's chunk loaded once before, so that neither figure counts it.
    await page.evaluate(() => (window.location.hash = '#/authorizations'))
    await page.getByRole('heading', { name: 'Inspect a token' }).waitFor()
    for (const [size, count] of [
      ['few', 1],
      ['many', PROCEDURES],
    ] as const) {
      const { secretId, endpoints } = await storeProcedures(page, count)
      await page.evaluate(() => (window.location.hash = '#/secrets'))
      figures[`what a secret can do, ${size}`] = await timed(
        page,
        `location.hash = '#/authorizations?inspect=secret:${secretId}'`,
        `document.querySelector('[data-testid="reach-count"]')?.textContent.includes('of the ${endpoints} endpoints')`,
      )
    }
    await page.evaluate(
      () => (window.location.hash = '#/console?endpoint=type.string.length&format=text'),
    )
    await page.getByTestId('endpoint-summary').waitFor()
    figures['paste 1 KiB into the console'] = await timed(page, PASTE_SMALL, PASTED)
    await page.reload()
    await ready(page)
    await page.getByTestId('endpoint-summary').waitFor()
    figures['paste 1 MiB into the console'] = await timed(page, PASTE, PASTED)
  } finally {
    await context.close()
  }
  return figures
}

try {
  const rounds: Array<Record<string, number>> = []
  for (let i = 0; i < ROUNDS; i++) rounds.push(await round())
  const line = (what: string, baseline: string): Line => {
    const figure = median(rounds.map((r) => r[what]!))
    return {
      what,
      figure,
      unit: 'ms',
      ratios: { [baseline]: median(rounds.map((r) => r[what]! / r[baseline]!)) },
    }
  }
  console.log(
    `\nThe playground's views, medians of ${ROUNDS} rounds (${loadAtStart} at the start, ${machine()} at the end)`,
  )
  printTable(
    `The exchange log with ${MANY.toLocaleString('en-US')} exchanges, ${PROCEDURES.toLocaleString('en-US')} procedures, and a pasted megabyte`,
    [
      line('first screen, log of few', 'first screen, log of few'),
      line('first screen, log of many', 'first screen, log of few'),
      line('open the log, few', 'open the log, few'),
      line('open the log, many', 'open the log, few'),
      line('search the log, few', 'search the log, few'),
      line('search the log, many', 'search the log, few'),
      line('open an exchange, few', 'open an exchange, few'),
      line('open an exchange, many', 'open an exchange, few'),
      line('coverage of the log, few', 'coverage of the log, few'),
      line('coverage of the log, many', 'coverage of the log, few'),
      line('reload into the log, few', 'reload into the log, few'),
      line('reload into the log, many', 'reload into the log, few'),
      line('reload into the log, huge', 'reload into the log, few'),
      line('open the log, huge', 'open the log, few'),
      line('what a secret can do, few', 'what a secret can do, few'),
      line('what a secret can do, many', 'what a secret can do, few'),
      line('paste 1 KiB into the console', 'paste 1 KiB into the console'),
      line('paste 1 MiB into the console', 'paste 1 KiB into the console'),
    ],
  )
  saveResults('playground-ui', { load: { start: loadAtStart, end: machine() } })
} finally {
  await browser.close()
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()))
  rmSync(outDir, { recursive: true, force: true })
}
