/**
 * Whether a call through the service worker into real IndexedDB costs as much after 5,000
 * calls as at the start, in Debian's Chromium on the built playground. Calls of five kinds in
 * turn (reverse with a secret and with a token, a composition, a keyv write, a scan), the
 * median of the first and of the last window of them. The last is read against the first
 * window of a fresh account (another base URL, in another page) measured just before it, so
 * that the machine's load moving between the two windows is not read as the account's growth.
 */
import { builtPlayground } from './chromium'
import { BASE, machine, printTable, saveResults } from './lib'

const CALLS = Number(process.env.BENCH_CALLS ?? 5000)
const WINDOW = Number(process.env.BENCH_WINDOW ?? 400)
const SERVICE = 'service'

const { origin, context, close } = await builtPlayground()

/**
 * A page of the playground on `base` (an account of its own) with a fresh secret and token;
 * `calls(from, to)` makes calls `from` to `to` - 1 and returns their median in ms, failing on
 * any answer but a 200.
 */
async function account(base: string): Promise<(from: number, to: number) => Promise<number>> {
  const page = await context.newPage()
  await page.goto(`${origin}/?baseUrl=${encodeURIComponent(base)}&serviceName=${SERVICE}`)
  await page.locator('html[data-ready="true"]').waitFor({ state: 'attached', timeout: 30_000 })
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
    { base, vnd: `application/vnd.${SERVICE}+json` },
  )
  return (from, to) =>
    page.evaluate(
      ([from, to]) =>
        (globalThis as { calls?: (from: number, to: number) => Promise<number> }).calls!(from, to),
      [from, to] as const,
    )
}

try {
  const large = await account(BASE)
  const first = await large(0, WINDOW)
  await large(WINDOW, CALLS - WINDOW)
  const fresh = await (await account(`${BASE}/fresh`))(0, WINDOW)
  const last = await large(CALLS - WINDOW, CALLS)

  const FRESH = `calls 1–${WINDOW} of a fresh account, just before`
  const growth = last / fresh
  const load = machine()
  printTable(`${CALLS} calls through the worker into IndexedDB, median of ${WINDOW}, ${load}`, [
    { what: FRESH, figure: fresh, unit: 'ms/call', ratios: {} },
    {
      what: `calls ${CALLS - WINDOW + 1}–${CALLS}`,
      figure: last,
      unit: 'ms/call',
      ratios: { [FRESH]: growth },
      goals: [{ to: FRESH, atMost: 1.3 }],
      met: growth <= 1.3,
      note: `calls 1–${WINDOW} of this account: ${first.toFixed(2)} ms`,
    },
  ])
  saveResults('storage-load', { load })
} finally {
  await close()
}
