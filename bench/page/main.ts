/**
 * The page `bench/browser-page.ts` drives: one MSW worker answering the engine's base URL and a
 * bare handler side by side, and the engine and raw `idb` over the same real IndexedDB. The
 * engine is made as the playground makes it (`src/ui/boot.ts`): over IndexedDB that tells other
 * tabs of its commits, keeping an exchange log of 500.
 */
import { openDB, type IDBPDatabase } from 'idb'
import { http } from 'msw'
import { setupWorker } from 'msw/browser'
import { usageOf, USAGE } from '../../src/engine/account/usage'
import { createEngine } from '../../src/engine'
import type { KeyvEntry, Mutation } from '../../src/engine/store'
import { createHandlers } from '../../src/msw/handlers'
import { broadcastCommits, openIdbStore } from '../../src/storage'
import { fill, KEYS, play, rewinds } from '../rewind-workload'

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

const name = `bench-${Date.now()}`
const store = broadcastCommits(await openIdbStore(name), name, 'bench')
const engine = createEngine({ store, baseUrl: BASE, exchangeLog: 500 })
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

const keyName = (i: number) => `k${String(i).padStart(6, '0')}`
const PAGE = 250
const CHUNK = 5_000

async function call(path: string) {
  const response = await engine.handle(
    new Request(`${BASE}/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
    }),
  )
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`)
  return response
}

let raw: IDBPDatabase | undefined
let bucket = 0

/**
 * A bucket of `keys` keys in both: the engine's store (written in chunks, with the account's
 * usage kept right, as if `keyv.set` had written them) and a raw `idb` database.
 */
async function seed(keys: number): Promise<string> {
  const name = `b${++bucket}`
  raw ??= await openDB(`raw-${Date.now()}`, 1, {
    upgrade: (db) => {
      db.createObjectStore('keyv', { keyPath: ['bucket', 'key'] })
      db.createObjectStore('meta')
    },
  })
  let usage = Number((await store.getMeta(USAGE)) ?? 0)
  for (let from = 0; from < keys; from += CHUNK) {
    const entries: KeyvEntry[] = []
    for (let i = from; i < Math.min(keys, from + CHUNK); i++) {
      entries.push({ bucket: name, key: keyName(i), value: 'v' })
    }
    usage += usageOf({ keyv: entries, procs: [] })
    const mutations: Mutation[] = entries.map((entry) => ({ op: 'setKey', ...entry }))
    await store.commit([...mutations, { op: 'putMeta', key: USAGE, value: usage }])
    const tx = raw.transaction('keyv', 'readwrite')
    for (const entry of entries) void tx.store.put(entry)
    await tx.done
  }
  return name
}

/** µs per set, `sets` sets one request (or one `put`) each, of keys after the seeded ones. */
async function engineSets(bucket: string, from: number, sets: number) {
  const started = performance.now()
  for (let i = from; i < from + sets; i++) {
    await call(`keyv/set?bucket=${bucket}&key=${keyName(i)}&value=v`)
  }
  return (performance.now() - started) / sets
}

async function rawSets(bucket: string, from: number, sets: number) {
  const started = performance.now()
  for (let i = from; i < from + sets; i++) {
    await raw!.put('keyv', { bucket, key: keyName(i), value: 'v' })
  }
  return (performance.now() - started) / sets
}

/**
 * The same with raw `idb` doing what the engine's write does in its one transaction: read the
 * key's old value and the account's usage, write the key and the new usage.
 */
async function rawCountedSets(bucket: string, from: number, sets: number) {
  const started = performance.now()
  for (let i = from; i < from + sets; i++) {
    const tx = raw!.transaction(['keyv', 'meta'], 'readwrite')
    const [old, usage] = await Promise.all([
      tx.objectStore('keyv').get([bucket, keyName(i)]),
      tx.objectStore('meta').get(USAGE),
    ])
    const size = old === undefined ? 0 : 1
    void tx.objectStore('keyv').put({ bucket, key: keyName(i), value: 'v' })
    void tx.objectStore('meta').put(Number(usage ?? 0) + 1 - size, USAGE)
    await tx.done
  }
  return (performance.now() - started) / sets
}

/** ms for a full scan of the bucket in pages of 250: `keyv.scan` with its cursor. */
async function engineScan(bucket: string, expected: number) {
  const started = performance.now()
  let cursor = ''
  let seen = 0
  do {
    const response = await call(
      `keyv/scan?bucket=${bucket}&count=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`,
    )
    seen += ((await response.json()) as string[]).length
    cursor = response.headers.get('x-cursor') ?? ''
  } while (cursor)
  if (seen !== expected) throw new Error(`the engine scanned ${seen} keys of ${expected}`)
  return performance.now() - started
}

/** The same with raw `getAllKeys(range, 250)` pages. */
async function rawScan(bucket: string, expected: number) {
  const started = performance.now()
  let after: IDBValidKey = [bucket, '']
  let open = false
  let seen = 0
  for (;;) {
    const range = IDBKeyRange.bound(after, [bucket, []], open, true)
    const page = await raw!.getAllKeys('keyv', range, PAGE)
    seen += page.length
    if (page.length < PAGE) break
    after = page[page.length - 1]!
    open = true
  }
  if (seen !== expected) throw new Error(`raw idb scanned ${seen} keys of ${expected}`)
  return performance.now() - started
}

/**
 * Over a bucket of `keys` keys in each: `rounds` rounds, each of `sets` sets in the engine then
 * as many raw puts, and a full scan by each; per round, the engine's time and raw's.
 */
async function keyvVsIdb(keys: number, rounds: number, sets: number) {
  const bucket = await seed(keys)
  const result = {
    engineSet: [] as number[],
    rawSet: [] as number[],
    rawCountedSet: [] as number[],
    engineScan: [] as number[],
    rawScan: [] as number[],
  }
  let next = keys
  // One unmeasured round first, to warm both up.
  for (let round = 0; round <= rounds; round++) {
    const engineSet = await engineSets(bucket, next, sets)
    const rawSet = await rawSets(bucket, next, sets)
    const rawCountedSet = await rawCountedSets(`${bucket}-counted`, next, sets)
    next += sets
    const engineScanned = await engineScan(bucket, next)
    const rawScanned = await rawScan(bucket, next)
    if (round === 0) continue
    result.engineSet.push(engineSet)
    result.rawSet.push(rawSet)
    result.rawCountedSet.push(rawCountedSet)
    result.engineScan.push(engineScanned)
    result.rawScan.push(rawScanned)
  }
  return result
}

/**
 * `bench/rewind.ts` in this page: an account over IndexedDB as the playground keeps one, its
 * 10,000 keys, 10,000 exchanges of history, and rewinds to before exchanges drawn uniformly
 * among them; each rewind's time in ms.
 */
async function rewindInPage(spread: number, count: number) {
  const name = `bench-rewind-${spread}-${Date.now()}`
  const store = broadcastCommits(await openIdbStore(name), name, 'bench')
  for (let i = 0; i < KEYS; i += 1000) await store.commit(fill().slice(i, i + 1000))
  const engine = createEngine({
    store,
    baseUrl: 'https://rewind.example.test',
    exchangeLog: 10_000,
  })
  const [secret] = await engine.start()
  const ids = await play(engine, secret!, spread)
  return rewinds(engine, ids, count)
}

Object.assign(globalThis, { workerVsBare, keyvVsIdb, rewindInPage })
document.documentElement.dataset.ready = 'true'
