import type { DBSchema, IDBPDatabase, IDBPTransaction } from 'idb'
import type { Json, KeyvEntry, ProcRecord, SecretRecord } from '../engine/store'

/** The database's shape at the latest schema version. */
export interface StoreDB extends DBSchema {
  /** Out-of-line keys: the value is the bare JSON. */
  meta: { key: string; value: Json }
  secrets: { key: string; value: SecretRecord }
  keyv: { key: [string, string]; value: KeyvEntry }
  procs: { key: string; value: ProcRecord }
}

export type StoreName = 'meta' | 'secrets' | 'keyv' | 'procs'

export const storeNames: readonly StoreName[] = ['meta', 'secrets', 'keyv', 'procs']

export type UpgradeTransaction = IDBPTransaction<StoreDB, StoreName[], 'versionchange'>

/**
 * One schema step, run inside the upgrade transaction. It may issue requests on `tx` but must
 * not await anything: the next migration runs as soon as it returns.
 */
export type Migration = (db: IDBPDatabase<StoreDB>, tx: UpgradeTransaction) => void

/**
 * The schema's history. Migration N (at index N - 1) takes a database from version N - 1 to
 * version N, so the current version is the list's length. Only ever append to it.
 */
export const migrations: readonly Migration[] = [
  (db) => {
    db.createObjectStore('meta')
    db.createObjectStore('secrets', { keyPath: 'id' })
    db.createObjectStore('keyv', { keyPath: ['bucket', 'key'] })
    db.createObjectStore('procs', { keyPath: 'name' })
  },
]

/** Runs migrations `oldVersion + 1` through `newVersion` of `list`, in order. */
export function runMigrations(
  list: readonly Migration[],
  db: IDBPDatabase<StoreDB>,
  tx: UpgradeTransaction,
  oldVersion: number,
  newVersion: number,
): void {
  for (let version = oldVersion + 1; version <= newVersion; version++) {
    const migration = list[version - 1]
    if (!migration) throw new Error(`No migration to schema version ${version}`)
    migration(db, tx)
  }
}
