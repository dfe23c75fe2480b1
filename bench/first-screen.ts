/**
 * The first screen of the built playground in Debian's Chromium, as a person meets it: from the
 * navigation's start until the first view's main control, "Create secret", is shown and
 * enabled, and until the account's secrets are listed. Cold is a fresh browser context (no
 * service worker, no cache, no database); warm is a reload in the same context. Also timed: the
 * first contentful paint, the engine ready (`html[data-ready="true"]`), and the phases the page
 * marks on its way (`performance.mark('playground:…')`), so that a slow first screen says where
 * its time went. Medians of `BENCH_ROUNDS` rounds (5 by default); the load average is printed
 * beside the figures, since the machine is shared.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from '@playwright/test'
import { build, preview } from 'vite'
import { launchChromium } from './chromium'
import { machine, median, printTable, saveResults, type Line } from './lib'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const BASE = 'https://bench.example.test'
/** How long one load may take before the round fails, with what the page showed by then. */
const LOAD_TIMEOUT_MS = 20_000
/** The goals: usable this soon from the navigation's start. */
const GOALS = { cold: 700, warm: 300 }
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
    paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    ...Object.fromEntries(
      performance.getEntriesByType('mark')
        .filter((mark) => mark.name.startsWith('playground:'))
        .map((mark) => [mark.name, mark.startTime]),
    ),
  })`)) as Marks
}

async function round(context: BrowserContext): Promise<{ cold: Marks; warm: Marks }> {
  await context.addInitScript(probe)
  const problems: string[] = []
  const page = await context.newPage()
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(String(error)))
  await page.goto(url)
  const cold = await marks(page, problems)
  await page.reload()
  const warm = await marks(page, problems)
  if (problems.length > 0) throw new Error(`errors in the page:\n${problems.join('\n')}`)
  return { cold, warm }
}

try {
  browser = await launchChromium()
  const cold: Marks[] = []
  const warm: Marks[] = []
  for (let i = 0; i < ROUNDS; i++) {
    const context = await browser.newContext()
    try {
      const measured = await round(context)
      cold.push(measured.cold)
      warm.push(measured.warm)
    } finally {
      await context.close()
    }
  }

  const pick = (list: Marks[], name: string) => median(list.map((m) => m[name] ?? Number.NaN))
  const rows: Array<[string, string]> = [
    ['first contentful paint', 'paint'],
    ...[...new Set([...cold, ...warm].flatMap((m) => Object.keys(m)))]
      .filter((name) => name.startsWith('playground:'))
      .sort((a, b) => pick(warm, a) - pick(warm, b))
      .map((name): [string, string] => [`  ${name.slice('playground:'.length)}`, name]),
    ['engine ready (data-ready)', 'ready'],
    ['"Create secret" shown and enabled', 'usable'],
    ['the secrets listed', 'listed'],
  ]
  console.log(
    `\nFirst screen in Chromium, medians of ${ROUNDS} rounds, ms from the navigation's start` +
      ` (${loadAtStart} at the start, ${machine()} at the end)`,
  )
  console.log(`| ${'what'.padEnd(36)} | ${'cold'.padStart(7)} | ${'warm'.padStart(7)} |`)
  console.log(`| ${'-'.repeat(36)} | ${'-'.repeat(7)} | ${'-'.repeat(7)} |`)
  for (const [what, name] of rows) {
    const c = pick(cold, name).toFixed(0)
    const w = pick(warm, name).toFixed(0)
    console.log(`| ${what.padEnd(36)} | ${c.padStart(7)} | ${w.padStart(7)} |`)
  }
  const usable = (which: 'cold' | 'warm'): Line => {
    const figure = pick(which === 'cold' ? cold : warm, 'usable')
    return {
      what: `usable, ${which}`,
      figure,
      unit: 'ms',
      ratios: {},
      met: figure < GOALS[which],
      note: `goal < ${GOALS[which]} ms`,
    }
  }
  printTable('The first screen usable ("Create secret" shown and enabled)', [
    usable('cold'),
    usable('warm'),
  ])
  saveResults('first-screen', { load: { start: loadAtStart, end: machine() } })
} finally {
  await browser?.close()
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()))
  rmSync(outDir, { recursive: true, force: true })
}
