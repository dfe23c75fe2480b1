/**
 * The engine per call, over the memory store and over IndexedDB (fake-indexeddb, wrapped as the
 * page wraps it), as ratios to baselines measured in the same interleaved rounds: the bare
 * Request → Response handler, and the same handler doing a raw store's reads or write for the
 * calls whose work is the store's (a scan, a put, a get). The IndexedDB figures are taken after
 * a fixed warm-up, and again after many more calls: a store that leaves work behind shows it as
 * a ratio above 1.
 */
import 'fake-indexeddb/auto'
import { IDBFactory } from 'fake-indexeddb'
import { openDB } from 'idb'
import { createEngine, createManualClock, type Engine } from '../src/engine'
import type { Store } from '../src/engine/store'
import { broadcastCommits, createMemoryStore, openIdbStore } from '../src/storage'
import {
  BASE,
  bare,
  interleave,
  linesOf,
  machine,
  ok,
  printTable,
  request,
  saveResults,
  type Row,
} from './lib'
import { engineOptions, rawSign } from './platform'

const CALLS = Number(process.env.BENCH_CALLS ?? 1000)
const IDB_CALLS = Number(process.env.BENCH_IDB_CALLS ?? 200)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7)
/** Calls every row makes before its first measured round. */
const WARM_UP = 1000
/** Calls between the first measurement of an IndexedDB call and its second. */
const LATER = 20_000
const KEYS = 500

const engineWith = (store: Store): Engine =>
  createEngine({ store, baseUrl: BASE, clock: createManualClock(), ...engineOptions })

const BARE = 'bare handler'

/** The calls measured on each store, with the engine ready to answer them. */
async function cases(engine: Engine) {
  const { key } = await engine.account.createSecret()
  const authorization = await ok(
    engine.handle(request('auth/create?abilities=type,keyv,core', key)),
  )
  for (let i = 0; i < KEYS; i++) await ok(engine.handle(request(`keyv/set?value=1&key=k${i}`, key)))
  const vnd = `application/vnd.${engine.settings.serviceName}+json`
  const composition = JSON.stringify([
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
  const call = (path: string, token = key, body = '', type = 'text/plain') =>
    ok(engine.handle(request(path, token, body, type)))
  return {
    reverseSecret: () => call('type/string/reverse', key, 'hello'),
    reverseAuthorization: () => call('type/string/reverse', authorization, 'hello'),
    ping: () => call('core/ping'),
    exec: () => call('core/exec', key, composition, vnd),
    set: (i: number) => call(`keyv/set?value=1&key=k${i % KEYS}`),
    get: (i: number) => call(`keyv/get?key=k${i % KEYS}`),
    scan: () => call('keyv/scan'),
    authCreate: () => call('auth/create?abilities=type,keyv'),
  }
}

/** The bare handler doing what a raw store does for a call: the floor of calls that use one. */
function rawHandler(work: (text: string) => Promise<unknown>) {
  return async () =>
    ok(
      (async () => {
        const req = request('x', 'k', 'hello')
        const text = await req.text()
        const result = await work(text)
        return new Response(JSON.stringify(result), {
          headers: { 'content-type': 'application/json' },
        })
      })(),
    )
}

async function memoryRows(): Promise<Row[]> {
  const engine = engineWith(createMemoryStore())
  const c = await cases(engine)
  const raw = createMemoryStore()
  const { id } = (await engineWith(raw).account.createSecret()) as { id: string }
  await raw.commit(
    Array.from({ length: KEYS }, (_, i) => ({
      op: 'setKey' as const,
      bucket: 'default',
      key: `k${i}`,
      value: 1,
    })),
  )
  const simple = [{ to: BARE, atMost: 1.5 }]
  return [
    {
      name: 'memory, raw store: a scan of 250',
      run: rawHandler(async () => raw.scanKeys('default', { prefix: '', limit: 251 })),
    },
    {
      name: 'memory, raw store: auth.create’s reads and signature',
      run: rawHandler(async (text) => {
        const signingKey = await raw.getMeta('signingKey')
        const secret = await raw.getSecret(id)
        return rawSign(String(signingKey), JSON.stringify({ s: secret?.id, a: [text] }))
      }),
    },
    { name: 'memory: type.string.reverse, secret', goals: simple, run: c.reverseSecret },
    {
      name: 'memory: type.string.reverse, authorization',
      goals: simple,
      run: c.reverseAuthorization,
    },
    { name: 'memory: core.ping, secret', goals: simple, run: c.ping },
    { name: 'memory: keyv.set', goals: simple, run: c.set },
    { name: 'memory: keyv.get', goals: simple, run: c.get },
    { name: 'memory: core.exec of a 2-call composition', run: c.exec },
    {
      name: 'memory: keyv.scan, a page of 250',
      goals: [
        { to: BARE, atMost: 2.5 },
        { to: 'memory, raw store: a scan of 250', atMost: 1.5 },
      ],
      run: c.scan,
    },
    {
      name: 'memory: auth.create',
      goals: [
        { to: BARE, atMost: 2.5 },
        { to: 'memory, raw store: auth.create’s reads and signature', atMost: 1.5 },
      ],
      run: c.authCreate,
    },
  ]
}

/** Stores to close at the end (their channels would keep the process running). */
const opened: Store[] = []

/** The page's store: IndexedDB telling other tabs of its commits. */
async function pageStore(name: string, indexedDB: IDBFactory): Promise<Store> {
  const store = broadcastCommits(
    await openIdbStore(name, { indexedDB }),
    `${name}-${Date.now()}`,
    'bench',
  )
  opened.push(store)
  return store
}

async function idbRows(): Promise<Row[]> {
  const engine = engineWith(await pageStore('bench', new IDBFactory()))
  const c = await cases(engine)
  const db = await openDB('raw', 1, {
    upgrade: (db) => db.createObjectStore('keyv', { keyPath: ['bucket', 'key'] }),
  })
  const tx = db.transaction('keyv', 'readwrite')
  for (let i = 0; i < KEYS; i++) void tx.store.put({ bucket: 'default', key: `k${i}`, value: 1 })
  await tx.done
  const range = IDBKeyRange.bound(['default', ''], ['default', []])
  const calls = IDB_CALLS
  const PUT = 'fake-indexeddb, raw: a put'
  const GET = 'fake-indexeddb, raw: a get'
  const SCAN = 'fake-indexeddb, raw: a scan of 250'
  return [
    {
      name: PUT,
      calls,
      run: rawHandler(async () => db.put('keyv', { bucket: 'default', key: 'k1', value: 1 })),
    },
    { name: GET, calls, run: rawHandler(async () => db.get('keyv', ['default', 'k1'])) },
    { name: SCAN, calls, run: rawHandler(async () => db.getAllKeys('keyv', range, 251)) },
    { name: 'fake-indexeddb: type.string.reverse, secret', calls, run: c.reverseSecret },
    {
      name: 'fake-indexeddb: type.string.reverse, authorization',
      calls,
      run: c.reverseAuthorization,
    },
    { name: 'fake-indexeddb: keyv.set', calls, baselines: [PUT], run: c.set },
    { name: 'fake-indexeddb: keyv.get', calls, baselines: [GET], run: c.get },
    { name: 'fake-indexeddb: keyv.scan, a page of 250', calls, baselines: [SCAN], run: c.scan },
  ]
}

async function main() {
  const load = machine()
  const rows: Row[] = [
    { name: BARE, run: () => ok(bare(request('x', 'k', 'hello'))) },
    ...(await memoryRows()),
    ...(await idbRows()),
  ]
  const measured = await interleave(rows, { calls: CALLS, rounds: ROUNDS, warmUp: WARM_UP })
  printTable(
    `The engine per call: median of ${ROUNDS} interleaved rounds (${CALLS} calls a row over memory, ${IDB_CALLS} over IndexedDB), ${load}`,
    linesOf(measured),
  )

  // The same IndexedDB call, fresh and after `LATER` more calls of every kind.
  const engine = engineWith(await pageStore('growth', new IDBFactory()))
  const c = await cases(engine)
  const kinds = [c.reverseSecret, c.reverseAuthorization, c.exec, c.set, c.scan]
  const reverse = { name: 'fresh (after the warm-up)', run: c.reverseAuthorization }
  const [fresh] = await interleave([reverse], { calls: CALLS, rounds: ROUNDS, warmUp: WARM_UP })
  for (let i = 0; i < LATER; i++) await kinds[i % kinds.length]!(i)
  const [aged] = await interleave(
    [{ name: `after ${LATER} more calls of every kind`, run: c.reverseAuthorization }],
    { calls: CALLS, rounds: ROUNDS, warmUp: 0 },
  )
  printTable(
    `fake-indexeddb: an authorized type.string.reverse, fresh vs after ${LATER} calls`,
    linesOf([fresh!, aged!]),
  )
  saveResults('engine', { load })
  await Promise.all(opened.map((store) => store.close()))
}

await main()
