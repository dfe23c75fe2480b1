/**
 * The engine per call, over the memory store and over IndexedDB (fake-indexeddb), as ratios to
 * the bare Request → Response floor. The IndexedDB figures are taken after a fixed warm-up, and
 * again after many more calls: a store that leaves work behind shows it as a ratio above 1.
 */
import 'fake-indexeddb/auto'
import { IDBFactory } from 'fake-indexeddb'
import { createEngine, createManualClock, type Engine } from '../src/engine'
import type { Store } from '../src/engine/store'
import { createMemoryStore, openIdbStore } from '../src/storage'
import { BASE, bare, ok, perCall, printRatios, request } from './lib'

const calls = Number(process.env.BENCH_CALLS ?? 1000)
/** Calls every engine answers before its first measured round. */
const warmUp = 1000
/** Calls between the first measurement of an IndexedDB call and its second. */
const later = 20_000

const engineWith = (store: Store): Engine =>
  createEngine({ store, baseUrl: BASE, clock: createManualClock() })

async function cases(engine: Engine) {
  const { key } = await engine.account.createSecret()
  const authorization = await ok(
    engine.handle(request('auth/create?abilities=type,keyv,core', key)),
  )
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
  return {
    'type.string.reverse, secret': () => engine.handle(request('type/string/reverse', key, 'hi')),
    'type.string.reverse, authorization': () =>
      engine.handle(request('type/string/reverse', authorization, 'hi')),
    'core.exec of a 2-call composition': () =>
      engine.handle(request('core/exec', key, composition, vnd)),
    'keyv.set': (i: number) => engine.handle(request(`keyv/set?value=1&key=k${i % 500}`, key)),
    'keyv.scan, page of 250': () => engine.handle(request('keyv/scan', key)),
  } satisfies Record<string, (i: number) => Promise<Response>>
}

async function main() {
  const rows: Array<[string, number]> = []
  const measure = async (name: string, fn: (i: number) => Promise<Response>) => {
    rows.push([name, await perCall({ calls, warmUp }, async (i) => ok(fn(i)))])
  }
  await measure('baseline: bare Request → reverse → Response', async () =>
    bare(request('x', 'k', 'hello')),
  )
  const stores: Array<[string, () => Promise<Store>]> = [
    ['memory', async () => createMemoryStore()],
    ['fake-indexeddb', () => openIdbStore('bench', { indexedDB: new IDBFactory() })],
  ]
  for (const [label, open] of stores) {
    const engine = engineWith(await open())
    for (const [name, fn] of Object.entries(await cases(engine)))
      await measure(`${label}: ${name}`, fn)
  }

  // The same IndexedDB call, fresh and after `later` more calls of every kind.
  const engine = engineWith(await openIdbStore('growth', { indexedDB: new IDBFactory() }))
  const kinds = Object.values(await cases(engine))
  const reverse = kinds[1]!
  const fresh = await perCall({ calls, warmUp }, async (i) => ok(reverse(i)))
  for (let i = 0; i < later; i++) await ok(kinds[i % kinds.length]!(i))
  const aged = await perCall({ calls, warmUp: 0 }, async (i) => ok(reverse(i)))

  printRatios(
    `Engine, median per call over 7 rounds of ${calls} calls, after ${warmUp} warm-up calls`,
    'µs/call',
    rows,
  )
  printRatios(
    `fake-indexeddb: an authorized type.string.reverse, fresh vs after ${later} calls`,
    'µs/call',
    [
      ['fresh (after the warm-up)', fresh],
      [`after ${later} more calls of every kind`, aged],
    ],
  )
}

await main()
