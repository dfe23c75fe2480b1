/**
 * The page `bench/browser-page.ts` drives: one MSW worker answering the engine's base URL and a
 * bare handler side by side, and the engine and raw `idb` over the same real IndexedDB.
 */
import { openDB } from 'idb'
import { http } from 'msw'
import { setupWorker } from 'msw/browser'
import { createEngine } from '../../src/engine'
import { createHandlers } from '../../src/msw/handlers'
import { openIdbStore } from '../../src/storage'

const BASE = 'https://bench.example.test'
const BARE = 'https://bare.example.test'
const reverse = (text: string) => [...text].reverse().join('')

function summary(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
  return { median: at(0.5), p99: at(0.99) }
}

async function post(url: string, token: string, body = '') {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
    body,
  })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${text}`)
  return text
}

const engine = createEngine({ store: await openIdbStore(`bench-${Date.now()}`), baseUrl: BASE })
const worker = setupWorker(
  ...createHandlers(engine),
  http.post(`${BARE}/reverse`, async ({ request }) => new Response(reverse(await request.text()))),
)
await worker.start({ onUnhandledRequest: 'bypass', quiet: true })
const { key } = await engine.account.createSecret()
const token = await post(`${BASE}/auth/create?abilities=type,keyv`, key)

/** Interleaves calls to both, so both see the same machine; per-call times in ms. */
async function workerVsBare(calls: number) {
  const engineTimes: number[] = []
  const bareTimes: number[] = []
  for (let i = 0; i < 20; i++) {
    await post(`${BASE}/type/string/reverse`, token, 'hello')
    await post(`${BARE}/reverse`, token, 'hello')
  }
  for (let i = 0; i < calls; i++) {
    let started = performance.now()
    await post(`${BASE}/type/string/reverse`, token, 'hello')
    engineTimes.push(performance.now() - started)
    started = performance.now()
    await post(`${BARE}/reverse`, token, 'hello')
    bareTimes.push(performance.now() - started)
  }
  return { engine: summary(engineTimes), bare: summary(bareTimes) }
}

/** `keys` sets then a full scan in pages of 250: the engine in the page vs raw idb. */
async function keyvVsIdb(keys: number) {
  const call = async (path: string) => {
    const response = await engine.handle(
      new Request(`${BASE}/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
      }),
    )
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`)
    return response
  }
  const name = (i: number) => `k${String(i).padStart(6, '0')}`
  let started = performance.now()
  for (let i = 0; i < keys; i++) await call(`keyv/set?bucket=b&key=${name(i)}&value=v`)
  const engineSet = performance.now() - started
  started = performance.now()
  let cursor = ''
  let seen = 0
  do {
    const response = await call(`keyv/scan?bucket=b&count=250${cursor ? `&cursor=${cursor}` : ''}`)
    seen += ((await response.json()) as string[]).length
    cursor = response.headers.get('x-cursor') ?? ''
  } while (cursor)
  const engineScan = performance.now() - started
  if (seen !== keys) throw new Error(`the engine scanned ${seen} keys of ${keys}`)

  const db = await openDB(`raw-${Date.now()}`, 1, {
    upgrade: (db) => db.createObjectStore('keyv'),
  })
  started = performance.now()
  for (let i = 0; i < keys; i++) await db.put('keyv', 'v', ['b', name(i)])
  const rawSet = performance.now() - started
  started = performance.now()
  let after: IDBValidKey | undefined
  let rawSeen = 0
  for (;;) {
    const range = after ? IDBKeyRange.lowerBound(after, true) : undefined
    const page = await db.getAllKeys('keyv', range, 250)
    rawSeen += page.length
    if (page.length < 250) break
    after = page[page.length - 1]
  }
  const rawScan = performance.now() - started
  if (rawSeen !== keys) throw new Error(`raw idb scanned ${rawSeen} keys of ${keys}`)
  return { engineSet, engineScan, rawSet, rawScan }
}

Object.assign(globalThis, { workerVsBare, keyvVsIdb })
document.documentElement.dataset.ready = 'true'
