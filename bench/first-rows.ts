/**
 * The exchange log's first rows, in the built playground, with the page's log holding each of
 * several sizes (none, what the page keeps, ten times that): from the navigation's start of a
 * reload into the log, and from a click on "Exchange log" on the first screen, until its first
 * row is drawn (or, with none, the note that there is none). One browser context per size, each
 * filled once; every round measures every size in turn, so that all of them meet the same load.
 */
import type { Browser, Page } from '@playwright/test'
import { median, printTable, type Line } from './lib'
import { seedFromBlank, type LoggedExchange } from './page-log'
import { timed } from './page-timing'

/** Milliseconds by what was measured, for one size in one round. */
export interface FirstRows {
  /** From the navigation's start of a reload into `#/log`. */
  reload: number
  /** From a click on the view's link, the first screen shown. */
  open: number
}

const ROWS = `document.querySelector('[data-testid="exchange-row"], .log-empty') !== null`
const USABLE = `[...document.querySelectorAll('main button')].some((b) => b.textContent === 'Create secret' && !b.disabled)`
const CLICK_LOG = `[...document.querySelectorAll('nav[aria-label="Views"] a')].find((a) => a.textContent === 'Exchange log').click()`

/** Waits until `done` holds; answers when, in ms from the navigation's start. */
async function since(page: Page, done: string): Promise<number> {
  const at = await page.waitForFunction(`(${done}) && performance.now()`, null, {
    timeout: 60_000,
    polling: 'raf',
  })
  return (await at.jsonValue()) as number
}

/** A page of the playground whose log holds `count` exchanges made from `exchanges`. */
async function filled(
  browser: Browser,
  origin: string,
  url: string,
  base: string,
  exchanges: readonly LoggedExchange[],
  count: number,
): Promise<Page> {
  const page = await (await browser.newContext()).newPage()
  if (count > 0) await seedFromBlank(page, origin, base, exchanges, count)
  await page.goto(url)
  await since(page, USABLE)
  return page
}

/**
 * `rounds` rounds of the log's first rows for each of `sizes`, interleaved; answers each size's
 * figures by round. `url` opens the playground on its first screen.
 */
export async function firstRows(
  browser: Browser,
  { origin, url, base }: { origin: string; url: string; base: string },
  exchanges: readonly LoggedExchange[],
  sizes: readonly number[],
  rounds: number,
): Promise<Map<number, FirstRows[]>> {
  const pages = new Map<number, Page>()
  const measured = new Map<number, FirstRows[]>(sizes.map((size) => [size, []]))
  try {
    for (const size of sizes) {
      pages.set(size, await filled(browser, origin, url, base, exchanges, size))
    }
    for (let i = 0; i < rounds; i++) {
      for (const size of sizes) {
        const page = pages.get(size)!
        await page.evaluate(() => (window.location.hash = '#/log'))
        await page.reload()
        const reload = await since(page, ROWS)
        await page.evaluate(() => (window.location.hash = '#/secrets'))
        await page.reload()
        await since(page, USABLE)
        const open = await timed(page, CLICK_LOG, ROWS)
        measured.get(size)!.push({ reload, open })
      }
    }
  } finally {
    for (const page of pages.values()) await page.context().close()
  }
  return measured
}

/**
 * Prints the log's first rows by size, each beside its goal: from a click, under `goalMs` at
 * every size; from a reload's start, no slower with a full log than with none (≤ 1.2×).
 */
export function printFirstRows(measured: Map<number, FirstRows[]>, goalMs: number): void {
  const sizes = [...measured.keys()]
  const empty = measured.get(sizes[0]!)!
  const named = (size: number) =>
    size === 0 ? 'no exchanges' : `${size.toLocaleString('en-US')} exchanges`
  const line = (size: number, what: keyof FirstRows): Line => {
    const rounds = measured.get(size)!
    const figure = median(rounds.map((r) => r[what]))
    const ratio = median(rounds.map((r, i) => r[what] / empty[i]![what]))
    const baseline = `${what}, ${named(sizes[0]!)}`
    const met = what === 'open' ? figure < goalMs : size === sizes[0] || ratio <= 1.2
    return {
      what: `${what}, ${named(size)}`,
      figure,
      unit: 'ms',
      ratios: size === sizes[0] ? {} : { [baseline]: ratio },
      met,
      note: what === 'open' ? `goal < ${goalMs} ms` : `goal ≤ 1.2× ${baseline}`,
    }
  }
  printTable(
    "The exchange log's first rows: from a click on its link (open), from a reload's start (reload)",
    [...sizes.map((size) => line(size, 'open')), ...sizes.map((size) => line(size, 'reload'))],
  )
}
