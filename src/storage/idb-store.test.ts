import 'fake-indexeddb/auto'
import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it, vi } from 'vitest'
import type { Store } from '../engine/store'
import { openDatabase } from './idb-open'
import type { Migration } from './idb-schema'
import { migrations } from './idb-schema'
import { openIdbStore } from './idb-store'
import { describeStoreContract } from '../testing/store-contract/index'
import { fill, setKeys } from '../testing/store-contract/fixtures'

const factories = new WeakMap<Store, IDBFactory>()

/**
 * fake-indexeddb's own bookkeeping: each database keeps the transactions it has not yet
 * removed, finished or not. Read here only, to prove the store leaves none unfinished.
 */
interface FakeDatabases {
  _databases: Map<string, { transactions: { _state: string }[] }>
}

describeStoreContract(
  'openIdbStore',
  async () => {
    const indexedDB = new IDBFactory()
    const store = await openIdbStore('store', { indexedDB })
    factories.set(store, indexedDB)
    return store
  },
  {
    update: true,
    openTransactions(store) {
      const factory = factories.get(store) as unknown as FakeDatabases
      return [...factory._databases.values()]
        .flatMap((db) => db.transactions)
        .filter((tx) => tx._state !== 'finished').length
    },
  },
)

describe('openIdbStore', () => {
  it('keeps its data across reopening the same database', async () => {
    const indexedDB = new IDBFactory()
    const first = await openIdbStore('account', { indexedDB })
    await fill(first)
    const saved = await first.snapshot()
    await first.close()
    const second = await openIdbStore('account', { indexedDB })
    expect(await second.snapshot()).toStrictEqual(saved)
    await second.close()
    const other = await openIdbStore('other', { indexedDB })
    expect((await other.snapshot()).keyv).toEqual([])
    await other.close()
  })

  it('opens a database created at version 1, keeping its data', async () => {
    const indexedDB = new IDBFactory()
    const v1 = await openDatabase(indexedDB, 'account', migrations.slice(0, 1))
    expect(v1.version).toBe(1)
    await v1.put('keyv', { bucket: 'b', key: 'k', value: 'old' })
    await v1.put('meta', 7, 'version')
    v1.close()
    const store = await openIdbStore('account', { indexedDB })
    expect(await store.getKey('b', 'k')).toBe('old')
    expect(await store.getMeta('version')).toBe(7)
    await store.close()
    const latest = await openDatabase(indexedDB, 'account', migrations)
    expect(latest.version).toBe(migrations.length)
    latest.close()
  })

  it('runs only the migrations a database lacks, in order', async () => {
    const indexedDB = new IDBFactory()
    const v1 = await openDatabase(indexedDB, 'account', migrations)
    await v1.put('meta', 'kept', 'before')
    v1.close()
    const steps = migrations.map((migration) => vi.fn(migration))
    const next: Migration = (_, tx) => void tx.objectStore('meta').put('ran', 'next')
    const upgraded = await openDatabase(indexedDB, 'account', [...steps, next])
    expect(upgraded.version).toBe(migrations.length + 1)
    expect(await upgraded.get('meta', 'next')).toBe('ran')
    expect(await upgraded.get('meta', 'before')).toBe('kept')
    for (const step of steps) expect(step).not.toHaveBeenCalled()
    upgraded.close()
  })

  it('fails an upgrade whose migration throws, leaving the database as it was', async () => {
    const indexedDB = new IDBFactory()
    const store = await openIdbStore('account', { indexedDB })
    await fill(store)
    const saved = await store.snapshot()
    await store.close()
    const broken: Migration = () => {
      throw new Error('migration failed')
    }
    await expect(openDatabase(indexedDB, 'account', [...migrations, broken])).rejects.toThrow(
      'migration failed',
    )
    const reopened = await openIdbStore('account', { indexedDB })
    expect(await reopened.snapshot()).toStrictEqual(saved)
    await reopened.close()
  })

  it('scans without cursors, which fake-indexeddb walks slowly over a bounded range', async () => {
    const store = await openIdbStore('account', { indexedDB: new IDBFactory() })
    await store.commit(setKeys('b', ['a', 'b', 'c', 'd']))
    const cursor = vi.spyOn(IDBObjectStore.prototype, 'openCursor')
    const keyCursor = vi.spyOn(IDBObjectStore.prototype, 'openKeyCursor')
    try {
      expect(await store.scanKeys('b', { prefix: '', after: 'a', limit: 2 })).toEqual(['b', 'c'])
      expect(cursor).not.toHaveBeenCalled()
      expect(keyCursor).not.toHaveBeenCalled()
    } finally {
      cursor.mockRestore()
      keyCursor.mockRestore()
      await store.close()
    }
  })

  it('closes itself instead of blocking a newer version opened elsewhere', async () => {
    const indexedDB = new IDBFactory()
    const store = await openIdbStore('account', { indexedDB })
    await fill(store)
    const newer = await openDatabase(indexedDB, 'account', [...migrations, () => {}])
    expect(newer.version).toBe(migrations.length + 1)
    expect(await newer.get('meta', 'version')).toBe(3)
    await expect(store.getMeta('version')).rejects.toThrow(/another connection/)
    await store.close()
    newer.close()
  })
})
