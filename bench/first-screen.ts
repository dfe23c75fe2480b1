/**
 * The first screen of the built playground in Debian's Chromium, as a person meets it: from the
 * navigation's start until the first view's main control, "Create secret", is shown and
 * enabled, and until the account's secrets are listed. Cold is a fresh browser context (no
 * service worker, no cache, no database), whose tab goes to the playground from a blank page of
 * its origin, 2 s after the context was made, in both rounds alike (`CONTEXT_SETTLE_MS`); warm is a reload in the same context, once the cold
 * visit has done its work after the first screen (its scripts' code cache, decision 100). Each
 * round is made twice, interleaved: with an empty account, and with the page's exchange log
 * holding 10,000 exchanges (the first screen must not depend on what the account holds). Also timed: the
 * first contentful paint, the engine ready (`html[data-ready="true"]`), and the phases the page
 * marks on its way (`performance.mark('playground:…')`) and the calls it made to the base URL
 * before it was usable, so that a slow first screen says where its time went; and, from one
 * more load of each under a Chromium trace, where the page's main thread spent that time
 * (`bench/main-thread.ts`). Then the exchange log's first rows, with the log holding none,
 * 10,000 and 100,000 exchanges (`bench/first-rows.ts`). Medians of `BENCH_ROUNDS` rounds (5 by
 * default); the load average is printed beside the figures, since the machine is shared.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from '@playwright/test'
import { build, preview } from 'vite'
import { launchChromium } from './chromium'
import { firstRows, printFirstRows } from './first-rows'
import { machine, median, printTable, saveResults, type Line } from './lib'
import { printMainThread, traceLoad, type MainThread } from './main-thread'
import { loggedExchanges, openBlank, seedPageLog, type LoggedExchange } from './page-log'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const BASE = 'https://bench.example.test'
/** How long one load may take before the round fails, with what the page showed by then. */
const LOAD_TIMEOUT_MS = 20_000
/** The goals: usable this soon from the navigation's start. */
const GOALS = { cold: 700, warm: 300, fullToEmpty: 1.2 }
/** Exchanges in the page's log for the "full" rounds: as many as the page keeps. */
const FULL_LOG = 10_000
/** The log's sizes its first rows are measured at: none, what the page keeps, ten times that. */
const LOG_SIZES = (process.env.BENCH_LOG_SIZES ?? `0,${FULL_LOG},100000`).split(',').map(Number)
/** The goal for the log's first rows, from a click on its link (decision 063). */
const FIRST_ROWS_MS = 300
// Run from the project's root, as `npm run bench` runs it.
const root = process.cwd()
// Built apart from dist/, which the Playwright server may be serving.
const outDir = mkdtempSync(join(tmpdir(), 'first-screen-'))

/** Milliseconds from the navigation's start, by what was seen. */
type Marks = Record<string, number>

/**
 * Runs in the page before its own scripts: notes when the main control is shown and enabled,
 * when the secrets are listed (or the view says there are none) and when `data-ready` appears. "Shown" is what a person
 * sees: in the layout, not hidden, not inert, not disabled.
 */
const probe = `(() => {
  const marks = (window.__firstScreen = {})
  const usable = (element) =>
    element && !element.disabled && !element.closest('[inert],[hidden],[aria-busy="true"]') &&
    element.getBoundingClientRect().width > 0
  const check = () => {
    const now = performance.now()
    if (marks.ready === undefined && document.documentElement?.dataset.ready === 'true') marks.ready = now
    if (marks.usable === undefined) {
      const button = [...document.querySelectorAll('main button')].find(
        (b) => b.textContent.trim() === 'Create secret',
      )
      if (usable(button)) marks.usable = now
    }
    if (marks.listed === undefined && document.querySelector('main table.secrets, main .empty')) marks.listed = now
    if (marks.usable !== undefined && marks.listed !== undefined && marks.ready !== undefined) observer.disconnect()
  }
  const observer = new MutationObserver(check)
  observer.observe(document, { attributes: true, childList: true, subtree: true })
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
const loadAtStart = machine()
let browser: Browser | undefined

/** Waits for the page to be usable; on a timeout, fails with what the page showed. */
async function marks(page: Page, problems: string[]): Promise<Marks> {
  try {
    await page.waitForFunction(
      'window.__firstScreen?.usable !== undefined && window.__firstScreen?.listed !== undefined',
      null,
      { timeout: LOAD_TIMEOUT_MS, polling: 50 },
    )
  } catch (error) {
    const shown = await page
      .evaluate(() => ({
        text: document.body.innerText.slice(0, 500),
        marks: JSON.stringify((window as { __firstScreen?: unknown }).__firstScreen),
        phases: performance
          .getEntriesByType('mark')
          .map((mark) => `${mark.name}@${mark.startTime.toFixed(0)}`)
          .join(' '),
      }))
      .catch((reason: unknown) => ({ text: String(reason), marks: '', phases: '' }))
    throw new Error(
      `the first screen was not usable within ${LOAD_TIMEOUT_MS} ms (${String(error)})\n` +
        `page text: ${shown.text}\nprobe: ${shown.marks}\nphases: ${shown.phases}\n` +
        `console: ${problems.join('\n') || 'nothing'}`,
      { cause: error },
    )
  }
  return (await page.evaluate(`({
    ...window.__firstScreen,
    calls: performance.getEntriesByType('resource').filter(
      (entry) => entry.name.startsWith(${JSON.stringify(BASE)}) && entry.startTime < window.__firstScreen.usable,
    ).length,
    paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    ...Object.fromEntries(
      performance.getEntriesByType('mark')
        .filter((mark) => mark.name.startsWith('playground:'))
        .map((mark) => [mark.name, mark.startTime]),
    ),
  })`)) as Marks
}

/**
 * One cold load and one warm reload in `context`. With `log`, the page's own exchange log holds
 * that many exchanges before the first load (written from a blank page of the origin, so that
 * the load stays cold: no worker, no cache).
 */
async function round(
  context: BrowserContext,
  log?: { exchanges: LoggedExchange[]; count: number },
): Promise<{ cold: Marks; warm: Marks }> {
  const made = Date.now()
  await context.addInitScript(probe)
  const problems: string[] = []
  const page = await context.newPage()
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${message.text()} (${message.location().url})`)
  })
  page.on('pageerror', (error) => problems.push(String(error)))
  // Both rounds open the playground from the same blank page of its origin, as long after their
  // context was made, so that they differ in the log only.
  await openBlank(page, origin)
  if (log) await seedPageLog(page, BASE, log.exchanges, log.count)
  await settledContext(made)
  await page.goto(url)
  const cold = await marks(page, problems)
  await settled(page)
  await page.reload()
  const warm = await marks(page, problems)
  if (problems.length > 0) throw new Error(`errors in the page:\n${problems.join('\n')}`)
  return { cold, warm }
}

/**
 * Waits until the first visit has done what it does once its first screen is shown: the shell
 * cached, and its scripts run once from that cache for their code cache (decision 100); a
 * return visit comes after that. A build that does not say so is given 10 s.
 */
async function settled(page: Page): Promise<void> {
  await page
    .locator('html[data-code-cache="ready"]')
    .waitFor({ state: 'attached', timeout: 10_000 })
    .catch(() => undefined)
}

/**
 * How long after its browser context is made a round's tab opens the playground. A context's
 * first page load in Chromium comes 150–250 ms later than the same load a second or two later:
 * the context's own start, which the full round used to spend filling the log, and the empty
 * round met on its first screen.
 */
const CONTEXT_SETTLE_MS = 2_000

/** Waits until `CONTEXT_SETTLE_MS` have passed since `made` (a `Date.now()`). */
async function settledContext(made: number): Promise<void> {
  const left = made + CONTEXT_SETTLE_MS - Date.now()
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left))
}

/** What the engine logs of a few calls, made once in a context of its own: the log's pattern. */
async function template(): Promise<LoggedExchange[]> {
  const context = await browser!.newContext()
  try {
    const page = await context.newPage()
    await page.goto(url)
    await page.locator('html[data-ready="true"]').waitFor({ state: 'attached', timeout: 30_000 })
    return await loggedExchanges(page, BASE)
  } finally {
    await context.close()
  }
}

try {
  browser = await launchChromium()
  const exchanges = await template()
  const measured = {
    empty: { cold: [] as Marks[], warm: [] as Marks[] },
    full: { cold: [] as Marks[], warm: [] as Marks[] },
  }
  // Interleaved, so that both see the same load.
  for (let i = 0; i < ROUNDS; i++) {
    for (const which of ['empty', 'full'] as const) {
      const context = await browser.newContext()
      try {
        const one = await round(
          context,
          which === 'full' ? { exchanges, count: FULL_LOG } : undefined,
        )
        measured[which].cold.push(one.cold)
        measured[which].warm.push(one.warm)
      } finally {
        await context.close()
      }
    }
  }

  const pick = (list: Marks[], name: string) => median(list.map((m) => m[name] ?? Number.NaN))
  const all = [...measured.empty.cold, ...measured.empty.warm]
  const rows: Array<[string, string]> = [
    ['first contentful paint', 'paint'],
    ...[...new Set(all.flatMap((m) => Object.keys(m)))]
      .filter((name) => name.startsWith('playground:'))
      .sort((a, b) => pick(measured.empty.warm, a) - pick(measured.empty.warm, b))
      .map((name): [string, string] => [`  ${name.slice('playground:'.length)}`, name]),
    ['engine ready (data-ready)', 'ready'],
    ['"Create secret" shown and enabled', 'usable'],
    ['the secrets listed', 'listed'],
    ['calls to the base URL before usable', 'calls'],
  ]
  console.log(
    `\nFirst screen in Chromium, medians of ${ROUNDS} rounds, ms from the navigation's start` +
      ` (${loadAtStart} at the start, ${machine()} at the end); "full": the page's log holds ${FULL_LOG.toLocaleString('en-US')} exchanges`,
  )
  const head = ['cold', 'warm', 'cold, full', 'warm, full']
  console.log(`| ${'what'.padEnd(36)} | ${head.map((h) => h.padStart(10)).join(' | ')} |`)
  console.log(`| ${'-'.repeat(36)} | ${head.map(() => '-'.repeat(10)).join(' | ')} |`)
  for (const [what, name] of rows) {
    const cells = [measured.empty.cold, measured.empty.warm, measured.full.cold, measured.full.warm]
      .map((list) => pick(list, name).toFixed(0).padStart(10))
      .join(' | ')
    console.log(`| ${what.padEnd(36)} | ${cells} |`)
  }
  const usable = (which: 'cold' | 'warm', log: 'empty' | 'full'): Line => {
    const figure = pick(measured[log][which], 'usable')
    // The ratio of each round's full load to the empty one beside it.
    const ratio = median(
      measured.full[which].map(
        (m, i) => (m.usable ?? NaN) / (measured.empty[which][i]?.usable ?? NaN),
      ),
    )
    return {
      what: `usable, ${which}${log === 'full' ? `, ${FULL_LOG.toLocaleString('en-US')} exchanges` : ''}`,
      figure,
      unit: 'ms',
      ratios: log === 'full' ? { [`usable, ${which}`]: ratio } : {},
      met: figure < GOALS[which] && (log === 'empty' || ratio <= GOALS.fullToEmpty),
      note: `goal < ${GOALS[which]} ms${log === 'full' ? `, full/empty ≤ ${GOALS.fullToEmpty}` : ''}`,
    }
  }
  printTable('The first screen usable ("Create secret" shown and enabled)', [
    usable('cold', 'empty'),
    usable('warm', 'empty'),
    usable('cold', 'full'),
    usable('warm', 'full'),
  ])

  // Where the main thread's time went until usable, in one more load of each, traced.
  const traced: Array<[string, MainThread]> = []
  for (const which of ['empty', 'full'] as const) {
    const context = await browser.newContext()
    const made = Date.now()
    try {
      const page = await context.newPage()
      await openBlank(page, origin)
      if (which === 'full') await seedPageLog(page, BASE, exchanges, FULL_LOG)
      await settledContext(made)
      const until = `window.__firstScreen?.usable`
      await context.addInitScript(probe)
      traced.push([`cold, ${which}`, await traceLoad(browser, page, () => page.goto(url), until)])
      await settled(page)
      traced.push([`warm, ${which}`, await traceLoad(browser, page, () => page.reload(), until)])
    } finally {
      await context.close()
    }
  }
  printMainThread(traced)

  const log = await firstRows(browser, { origin, url, base: BASE }, exchanges, LOG_SIZES, ROUNDS)
  printFirstRows(log, FIRST_ROWS_MS)
  saveResults('first-screen', { load: { start: loadAtStart, end: machine() } })
} finally {
  await browser?.close()
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()))
  rmSync(outDir, { recursive: true, force: true })
}
