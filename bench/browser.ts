/**
 * Browser benchmarks: the built playground in Debian's Chromium, every call through MSW's
 * service worker into the engine over real IndexedDB. Figures are ratios to a baseline taken
 * in the same run: a `fetch` of a small static file from the preview server on 127.0.0.1.
 */
import { builtPlayground } from './chromium'
import { machine, printTable, saveResults } from './lib'

const CALLS = Number(process.env.BENCH_BROWSER_CALLS ?? 200)
const BASE = 'https://bench.example.test'

const { origin, context, close } = await builtPlayground()

try {
  // The baseline page is on another origin (localhost), where no service worker runs.
  const plain = await context.newPage()
  const other = origin.replace('127.0.0.1', 'localhost')
  await plain.goto(`${other}/index.html`)
  const baselineMs = await plain.evaluate(async (calls) => {
    const get = () => fetch('/index.html', { cache: 'no-store' }).then((r) => r.text())
    for (let i = 0; i < 20; i++) await get()
    const started = performance.now()
    for (let i = 0; i < calls; i++) await get()
    return (performance.now() - started) / calls
  }, CALLS)

  const page = await context.newPage()
  await page.goto(`${origin}/?baseUrl=${encodeURIComponent(BASE)}`)
  await page.locator('html[data-ready="true"]').waitFor({ state: 'attached', timeout: 30_000 })
  const rows = await page.evaluate(
    async ({ base, calls }) => {
      const post = (path: string, token: string, body = '', type = 'text/plain') =>
        fetch(`${base}/${path}`, {
          method: 'POST',
          headers: { authorization: `bearer ${token}`, 'content-type': type },
          body,
        }).then((response) => response.text())
      const { key } = await (
        await fetch(`${base}/_account/secrets`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).json()
      const token = await post('auth/create?abilities=type,keyv,core', key)
      const proc = JSON.stringify([
        [
          '$$',
          'proc',
          [
            '{}',
            ['>>', ['%%', 'foo']],
            ['()', 'type.string.reverse'],
            ['()', 'type.string.capitalize'],
          ],
        ],
      ])
      let n = 0
      const cases: Array<[string, () => Promise<unknown>]> = [
        ['core.ping, secret', () => post('core/ping', key)],
        ['type.string.reverse, authorization', () => post('type/string/reverse', token, 'hello')],
        [
          'core.exec of a 2-call composition',
          () => post('core/exec', key, proc, 'application/vnd.service+json'),
        ],
        ['keyv.set (an IndexedDB write)', () => post(`keyv/set?key=k${n++ % 100}&value=v`, key)],
        ['keyv.get', () => post('keyv/get?key=k1', key)],
      ]
      const results: Array<[string, number]> = []
      for (const [name, run] of cases) {
        for (let i = 0; i < 20; i++) await run()
        const started = performance.now()
        for (let i = 0; i < calls; i++) await run()
        results.push([name, (performance.now() - started) / calls])
      }
      return results
    },
    { base: BASE, calls: CALLS },
  )
  const BASELINE = 'fetch index.html from 127.0.0.1, no worker'
  const load = machine()
  printTable(`The playground in Chromium, ${CALLS} sequential calls each, mean, ${load}`, [
    { what: BASELINE, figure: baselineMs, unit: 'ms/call', ratios: {} },
    ...rows.map(([what, figure]) => ({
      what,
      figure,
      unit: 'ms/call',
      ratios: { [BASELINE]: figure / baselineMs },
    })),
  ])
  saveResults('browser', { load })
} finally {
  await close()
}
