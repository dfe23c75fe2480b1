/**
 * Vitest setup for the `idb` project: the engine suites run again over the IndexedDB store
 * (fake-indexeddb), a fresh database for every harness.
 */
import 'fake-indexeddb/auto'
import { IDBFactory } from 'fake-indexeddb'
import type { Store } from '../engine/store'
import { STORE } from './engine-harness'
import { openIdbStore } from '../storage/idb-store'

let databases = 0

;(globalThis as { [STORE]?: () => Promise<Store> })[STORE] = () =>
  openIdbStore(`harness-${++databases}`, { indexedDB: new IDBFactory() })
