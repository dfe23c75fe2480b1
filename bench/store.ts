/**
 * How each store's key scans and bucket counts grow with what it holds: a bucket of 5,000 keys
 * read in pages of 250 against one of 500, and 256 buckets counted against 26, on the memory
 * store, SQLite (a file) and IndexedDB (fake-indexeddb), in the same interleaved rounds. Ten
 * times the data should cost about ten times as much; a scan that rereads what it passed, or a
 * count that walks every key, shows as a ratio near a hundred.
 */
import 'fake-indexeddb/auto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { IDBFactory } from 'fake-indexeddb'
import type { Store } from '../src/engine/store'
import { createMemoryStore, openIdbStore } from '../src/storage'
import { openSqliteStore } from '../src/storage/sql/sqlite-store'
import { scanPaged, setKeys } from '../src/testing/store-contract/fixtures'
import { interleave, linesOf, machine, printTable, saveResults, type Row } from './lib'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7)
/** Ten times the data may cost at most this many times as much. */
const LINEAR = 20

const pad = (i: number) => String(i).padStart(4, '0')
const keysOf = (count: number) => Array.from({ length: count }, (_, i) => `k/${pad(i)}`)

/** Buckets `small` and `large` of 500 and 5,000 keys, with neighbours sharing their prefix. */
async function fillScans(store: Store): Promise<void> {
  const keys = keysOf(5000)
  await store.commit([
    ...setKeys('large', [...keys].reverse()),
    ...setKeys('large', ['j', 'l', 'k']),
    ...setKeys('small', keys.slice(0, 500)),
    ...setKeys('small', ['j', 'l', 'k']),
    ...setKeys('larga', keys.slice(0, 500)),
    ...setKeys('largf', keys.slice(0, 500)),
  ])
}

/** Scans a bucket of `count` keys, failing the benchmark if it does not read them all. */
async function scan(store: Store, bucket: string, count: number): Promise<void> {
  const keys = await scanPaged(store, bucket, 'k/', 250)
  if (keys.length !== count) throw new Error(`${bucket}: ${keys.length} keys, not ${count}`)
}

/** A store of `count` buckets of 39 keys each. */
async function bucketStore(open: () => Promise<Store>, count: number): Promise<Store> {
  const store = await open()
  const keys = keysOf(39)
  const names = Array.from({ length: count }, (_, i) => `b${pad(i)}`)
  await store.commit(names.flatMap((bucket) => setKeys(bucket, keys)))
  return store
}

async function count(store: Store, buckets: number): Promise<void> {
  const listed = await store.listBuckets()
  if (listed.length !== buckets) throw new Error(`${listed.length} buckets, not ${buckets}`)
}

const dir = mkdtempSync(join(tmpdir(), 'bench-store-'))
let files = 0
const stores: Array<[string, () => Promise<Store>, number]> = [
  ['memory', async () => createMemoryStore(), 50],
  ['SQLite', () => openSqliteStore(join(dir, `${++files}.db`)), 20],
  ['IndexedDB', () => openIdbStore(`bench-${++files}`, { indexedDB: new IDBFactory() }), 4],
]

const opened: Store[] = []
const open = async (make: () => Promise<Store>) => {
  const store = await make()
  opened.push(store)
  return store
}

try {
  const rows: Row[] = []
  for (const [name, make, calls] of stores) {
    const scans = await open(make)
    await fillScans(scans)
    const few = await open(() => bucketStore(make, 26))
    const many = await open(() => bucketStore(make, 256))
    const small = `${name}: scan 500 keys`
    const fewName = `${name}: count 26 buckets`
    rows.push(
      { name: small, calls, run: () => scan(scans, 'small', 500) },
      {
        name: `${name}: scan 5,000 keys`,
        calls,
        goals: [{ to: small, atMost: LINEAR }],
        run: () => scan(scans, 'large', 5000),
      },
      { name: fewName, calls, run: () => count(few, 26) },
      {
        name: `${name}: count 256 buckets`,
        calls,
        goals: [{ to: fewName, atMost: LINEAR }],
        run: () => count(many, 256),
      },
    )
  }
  const measured = await interleave(rows, { calls: 20, rounds: ROUNDS, warmUp: 2 })
  printTable(`Store scans and counts, ten times the data (${machine()})`, linesOf(measured))
  saveResults('store')
} finally {
  for (const store of opened) await store.close()
  rmSync(dir, { recursive: true, force: true })
}
