/**
 * Whether a call through the service worker into real IndexedDB costs as much after 5,000
 * calls as at the start, in Debian's Chromium on the built playground. Calls of five kinds in
 * turn (reverse with a secret and with a token, a composition, a keyv write, a scan), the
 * median of the first and of the last window of them; each window is read against a baseline
 * taken just before it in the same run (a `fetch` of a small static file from the preview
 * server, on another origin where no worker runs), so that the machine's load moving between
 * the two windows is not read as the account's growth.
 */
import type { Page } from '@playwright/test'
import { build, preview } from 'vite'
import { launchChromium } from './chromium'
import { BASE, machine, printTable, saveResults } from './lib'

const CALLS = Number(process.env.BENCH_CALLS ?? 5000)
const WINDOW = Number(process.env.BENCH_WINDOW ?? 400)
const SERVICE = 'service'

await build({ logLevel: 'warn' })
const server = await preview({ preview: { host: '127.0.0.1', port: 0 }, logLevel: 'warn' })
const origin = server.resolvedUrls!.local[0]!.replace(/\/$/, '')
const browser = await launchChromium()
// tsx names functions with a `__name` helper that pages evaluating them do not have.
const context = await browser.newContext()
await context.addInitScript('globalThis.__name = (fn) => fn')

/** The median, in ms, of `count` fetches of a static file, with no service worker. */
const baseline = (page: Page, count: number) =>
  page.evaluate(async (count) => {
    const durations: number[] = []
    for (let i = 0; i < count; i++) {
      const started = performance.now()
      await fetch('/index.html', { cache: 'no-store' }).then((r) => r.text())
      durations.push(performance.now() - started)
    }
    durations.sort((a, b) => a - b)
    return durations[Math.floor(durations.length / 2)]!
  }, count)

try {
  const plain = await context.newPage()
  await plain.goto(`${origin.replace('127.0.0.1', 'localhost')}/index.html`)
  await baseline(plain, 50)

  const page = await context.newPage()
  await page.goto(`${origin}/?baseUrl=${encodeURIComponent(BASE)}&serviceName=${SERVICE}`)
  await page.locator('html[data-ready="true"]').waitFor({ state: 'attached', timeout: 30_000 })
  // Defines the calls in the page once; `calls(from, to)` makes calls `from` to `to` - 1 and
  // returns their median in ms, failing on any answer but a 200.
  await page.evaluate(
    async ({ base, vnd }) => {
      const post = async (path: string, token: string, body = '', type = 'text/plain') => {
        const response = await fetch(`${base}/${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': type },
          body,
        })
        const text = await response.text()
        if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`)
        return text
      }
      const created = await fetch(`${base}/_account/secrets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
      const { key } = (await created.json()) as { key: string }
      const token = await post('auth/create?abilities=type,core,keyv%3Fbucket%3Dload', key)
      const composition = JSON.stringify([
        ['$$', 'proc', ['{}', ['>>', ['%%', 'ab']], ['()', 'type.string.reverse']]],
      ])
      const kinds = [
        () => post('type/string/reverse', key, 'abc'),
        () => post('type/string/reverse', token, 'abc'),
        () => post('core/exec', token, composition, vnd),
        (i: number) => post(`keyv/set?bucket=load&key=k${i % 50}&value=${i}`, token),
        () => post('keyv/scan?bucket=load&count=10', token),
      ]
      ;(globalThis as { calls?: unknown }).calls = async (from: number, to: number) => {
        const durations: number[] = []
        for (let i = from; i < to; i++) {
          const started = performance.now()
          await kinds[i % kinds.length]!(i)
          durations.push(performance.now() - started)
        }
        durations.sort((a, b) => a - b)
        return durations[Math.floor(durations.length / 2)]!
      }
    },
    { base: BASE, vnd: `application/vnd.${SERVICE}+json` },
  )
  const calls = (from: number, to: number) =>
    page.evaluate(
      ([from, to]) =>
        (globalThis as { calls?: (from: number, to: number) => Promise<number> }).calls!(from, to),
      [from, to] as const,
    )

  const firstBaseline = await baseline(plain, WINDOW)
  const first = await calls(0, WINDOW)
  await calls(WINDOW, CALLS - WINDOW)
  const lastBaseline = await baseline(plain, WINDOW)
  const last = await calls(CALLS - WINDOW, CALLS)

  const BASELINE = 'fetch index.html from 127.0.0.1, no worker'
  const FIRST = `calls 1–${WINDOW}`
  const growth = last / lastBaseline / (first / firstBaseline)
  const load = machine()
  printTable(`${CALLS} calls through the worker into IndexedDB, median of ${WINDOW}, ${load}`, [
    {
      what: BASELINE,
      figure: firstBaseline,
      unit: 'ms/call',
      ratios: {},
      note: `${lastBaseline.toFixed(2)} ms before the last window`,
    },
    { what: FIRST, figure: first, unit: 'ms/call', ratios: { [BASELINE]: first / firstBaseline } },
    {
      what: `calls ${CALLS - WINDOW + 1}–${CALLS}`,
      figure: last,
      unit: 'ms/call',
      ratios: { [BASELINE]: last / lastBaseline, [FIRST]: growth },
      goals: [{ to: FIRST, atMost: 1.3 }],
      met: growth <= 1.3,
      note: 'its ratio to the first window: each against the baseline taken just before it',
    },
  ])
  saveResults('storage-load', { load })
} finally {
  await browser.close()
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()))
}
