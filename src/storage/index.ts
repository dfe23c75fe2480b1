export { createMemoryStore } from './memory-store'
export { openIdbStore } from './idb-store'
export type { IdbStoreOptions } from './idb-store'
