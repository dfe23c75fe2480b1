/**
 * The playground's views under load, in Debian's Chromium, on the built page: the exchange
 * log holding 10,000 exchanges (opened, searched, one exchange opened, and the first screen
 * with that log stored), and a megabyte pasted into the console's input. Each figure is the
 * median of `BENCH_ROUNDS` rounds (5 by default), beside a baseline taken in the same rounds: the
 * same step over a log of 50 exchanges, or a first screen with an empty log. The load average
 * is printed beside the figures, since the machine is shared.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { build, preview } from 'vite'
import { launchChromium } from './chromium'
import { machine, median, printTable, saveResults, type Line } from './lib'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const BASE = 'https://bench-ui.example.test'
const MANY = 10_000
const FEW = 50
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

/** Milliseconds in the page from `act` until `done` holds, checked every frame. */
async function timed(page: Page, act: string, done: string): Promise<number> {
  return page.evaluate(
    ([act, done]) =>
      new Promise<number>((resolve, reject) => {
        const started = performance.now()
        new Function(act)()
        const check = () => {
          if (new Function(`return (${done})`)()) return resolve(performance.now() - started)
          if (performance.now() - started > 60_000) return reject(new Error(`never: ${done}`))
          requestAnimationFrame(check)
        }
        requestAnimationFrame(check)
      }),
    [act, done] as const,
  )
}

/**
 * Fills the page's own log (its IndexedDB database beside the account's) with `count`
 * exchanges made from the ones the engine logged, each with a key of its own, for this tab.
 */
async function fillLog(page: Page, count: number): Promise<void> {
  await page.evaluate(
    async ({ base, count }) => {
      const secrets = (await (await fetch(`${base}/_account/secrets`)).json()) as Array<{
        key: string
      }>
      const key = secrets[0]!.key
      const post = (path: string, body: string, type = 'application/vnd.service+json') =>
        fetch(`${base}/${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': type },
          body,
        })
      await post(
        'keyv/set',
        JSON.stringify([
          ['$$', 'bucket', 'users'],
          ['$$', 'key', 'alice/1'],
          ['$$', 'value', ['%%', { name: 'Alice' }]],
        ]),
      )
      await post('type/string/reverse', 'hello', 'text/plain')
      await post('keyv/get?bucket=users&key=bob%2F1', '', 'text/plain')
      const { exchanges } = (await (await fetch(`${base}/_account/exchanges`)).json()) as {
        exchanges: Array<Record<string, unknown> & { request: { url: string } }>
      }
      // This tab, as the page names it (src/ui/shared/page-store.ts), named here if not yet.
      let tab = sessionStorage.getItem('playground:tab')
      if (!tab) sessionStorage.setItem('playground:tab', (tab = crypto.randomUUID()))
      const name = `playground:service@${base}:page`
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name)
        request.onsuccess = () => resolve(request.result)
        request.onerror = () => reject(request.error)
      })
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction('exchanges', 'readwrite')
        tx.objectStore('exchanges').clear()
        for (let i = 0; i < count; i++) {
          const { id: _id, ...record } = exchanges[i % exchanges.length]!
          const url = `${record.request.url.split('?')[0]}?key=user%2F${i}`
          tx.objectStore('exchanges').add({ ...record, request: { ...record.request, url }, tab })
        }
        tx.oncomplete = () => resolve()
        tx.onerror = () => reject(tx.error)
      })
      db.close()
      await fetch(`${base}/_account/exchanges/clear`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
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
    `The exchange log with ${MANY.toLocaleString('en-US')} exchanges, and a pasted megabyte`,
    [
      line('first screen, log of few', 'first screen, log of few'),
      line('first screen, log of many', 'first screen, log of few'),
      line('open the log, few', 'open the log, few'),
      line('open the log, many', 'open the log, few'),
      line('search the log, few', 'search the log, few'),
      line('search the log, many', 'search the log, few'),
      line('open an exchange, few', 'open an exchange, few'),
      line('open an exchange, many', 'open an exchange, few'),
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
