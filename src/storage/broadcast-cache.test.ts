import 'fake-indexeddb/auto'
import { IDBFactory } from 'fake-indexeddb'
import { afterEach, describe, expect, it } from 'vitest'
import { createEngine, createManualClock } from '../engine'
import { USAGE, usageOf } from '../engine/account/usage'
import type { Json, Store } from '../engine/store'
import { broadcastCommits } from './broadcast-store'
import { createMemoryStore } from './memory-store'
import { openIdbStore } from './idb-store'

const run = crypto.randomUUID()
let names = 0
const opened: Store[] = []
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()))
})

/** A store counting the reads that reach it. */
function counting(store: Store) {
  const reads = { meta: 0, secrets: 0 }
  const counted: Store = {
    ...store,
    getMeta: (key) => (reads.meta++, store.getMeta(key)),
    getSecret: (id) => (reads.secrets++, store.getSecret(id)),
    listSecrets: () => (reads.secrets++, store.listSecrets()),
  }
  return { counted, reads }
}

/** A tab: an engine over the account's IndexedDB, told of the other tabs' commits. */
async function tab(indexedDB: IDBFactory, channel: string, name: string) {
  let wake = () => {}
  let heard = 0
  const store = broadcastCommits(await openIdbStore('account', { indexedDB }), channel, name, {
    heard: () => {
      heard++
      wake()
    },
  })
  opened.push(store)
  const engine = createEngine({
    store,
    baseUrl: 'https://api.example.test',
    clock: createManualClock(),
  })
  const call = async (path: string, token: string) => {
    const response = await engine.handle(
      new Request(`https://api.example.test/${path}`, {
        method: 'POST',
        headers: { authorization: `bearer ${token}`, accept: 'text/plain' },
      }),
    )
    return `${response.status} ${await response.text()}`
  }
  /** Waits until this tab has heard `count` commits of the others in all. */
  const hears = (count: number) =>
    new Promise<void>((resolve) => {
      wake = () => heard >= count && resolve()
      wake()
    })
  return { engine, call, hears }
}

/** Two tabs of one account, over one IndexedDB and one channel. */
async function twoTabs() {
  const indexedDB = new IDBFactory()
  const channel = `cache-test-${run}-${names++}`
  const a = await tab(indexedDB, channel, 'tab-a')
  const b = await tab(indexedDB, channel, 'tab-b')
  return { a, b }
}

describe('broadcastCommits keeps the settings and secrets in memory', () => {
  it('reads each meta key and secret from the store once, and keeps what it commits', async () => {
    const { counted, reads } = counting(createMemoryStore())
    const store = broadcastCommits(counted, `cache-test-${run}-${names++}`, 'tab-a')
    opened.push(store)
    const secret = { id: 's1', key: 'k1', createdAt: 1, expiresAt: null, rolledTo: null }
    await counted.commit([
      { op: 'putMeta', key: 'clock', value: 5 },
      { op: 'putSecret', secret },
    ])
    for (let i = 0; i < 3; i++) {
      expect(await store.getMeta('clock')).toBe(5)
      expect(await store.getMeta('absent')).toBeUndefined()
      expect(await store.getSecret('s1')).toEqual(secret)
    }
    expect(reads).toEqual({ meta: 2, secrets: 1 })
    await store.commit([
      { op: 'putMeta', key: 'clock', value: 6 },
      { op: 'putSecret', secret: { ...secret, expiresAt: 10 } },
    ])
    expect(await store.getMeta('clock')).toBe(6)
    expect(await store.getSecret('s1')).toEqual({ ...secret, expiresAt: 10 })
    expect(reads).toEqual({ meta: 2, secrets: 1 })
    // What it hands out is a copy, as the store's own reads are.
    const owner: Json = { name: 'a' }
    await store.commit([{ op: 'putMeta', key: 'owner', value: owner }])
    ;((await store.getMeta('owner')) as { name: string }).name = 'changed'
    expect(await store.getMeta('owner')).toEqual({ name: 'a' })
  })

  it('keeps no read that was under way when a commit came in', async () => {
    const inner = createMemoryStore()
    await inner.commit([{ op: 'putMeta', key: 'clock', value: 1 }])
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const slow: Store = {
      ...inner,
      // The first read is answered (with what the store held) only once released.
      getMeta: async (key) => {
        const value = await inner.getMeta(key)
        await held
        return value
      },
    }
    const store = broadcastCommits(slow, `cache-test-${run}-${names++}`, 'tab-a')
    opened.push(store)
    const reading = store.getMeta('clock')
    await store.commit([{ op: 'putMeta', key: 'other', value: 2 }])
    await inner.commit([{ op: 'putMeta', key: 'clock', value: 3 }])
    release()
    expect(await reading).toBe(1)
    expect(await store.getMeta('clock')).toBe(3)
  })
})

describe('two tabs over one IndexedDB: the next request sees the other tab’s commit', () => {
  it('a secret made, rolled, and its roll brought forward', async () => {
    const { a, b } = await twoTabs()
    const other = b.engine
    const first = await a.engine.account.createSecret()
    expect(await a.call('core/ping', first.key)).toBe('200 true')
    const made = await other.account.createSecret()
    await a.hears(1)
    expect(await a.call('core/ping', made.key)).toBe('200 true')
    const now = await other.account.now()
    const replacement = await other.account.rollSecret(made.id, { at: now + 3600 })
    await a.hears(2)
    expect(await a.call('core/ping', replacement.key)).toBe('200 true')
    expect(await a.call('core/ping', made.key)).toBe('200 true')
    await other.account.rollSecret(made.id)
    await a.hears(3)
    expect(await a.call('core/ping', made.key)).toBe('401 authorization is expired')
  })

  it('the clock moved, an authorization expiring', async () => {
    const { a, b } = await twoTabs()
    const { key } = await a.engine.account.createSecret()
    const token = (await a.call('auth/create?abilities=core&ttl=60', key)).slice(4)
    expect(await a.call('core/ping', token)).toBe('200 true')
    await b.engine.account.advanceClock(61)
    await a.hears(1)
    expect(await a.call('core/ping', token)).toBe('401 authorization is expired')
  })

  it('a reset and an import', async () => {
    const { a, b } = await twoTabs()
    const { key } = await a.engine.account.createSecret()
    const token = (await a.call('auth/create?abilities=core', key)).slice(4)
    expect(await a.call('core/ping', token)).toBe('200 true')
    const exported = await b.engine.account.exportSnapshot()
    await b.engine.reset()
    await a.hears(1)
    expect(await a.call('core/ping', key)).toBe('401 authorization is invalid')
    expect(await a.call('core/ping', token)).toBe('401 authorization is invalid')
    await b.engine.account.importSnapshot(exported)
    await a.hears(2)
    expect(await a.call('core/ping', key)).toBe('200 true')
    expect(await a.call('core/ping', token)).toBe('200 true')
  })

  it('both tabs’ writes, made at once, are all counted in the account’s usage', async () => {
    const { a, b } = await twoTabs()
    const { key } = await a.engine.account.createSecret()
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? a : b).call(`keyv/set?key=k${i}&value=${'x'.repeat(i)}`, key),
      ),
    )
    const { store } = a.engine.settings
    const snapshot = await store.snapshot()
    expect(snapshot.keyv).toHaveLength(20)
    expect(await store.getMeta(USAGE)).toBe(usageOf(snapshot))
  })
})
