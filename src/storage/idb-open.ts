import type { IDBPDatabase } from 'idb'
import { wrap } from 'idb'
import type { Migration, StoreDB, UpgradeTransaction } from './idb-schema'
import { runMigrations } from './idb-schema'

export interface OpenDatabaseOptions {
  /** Called once if the connection closes by itself (see `openDatabase`). */
  onClosed?: (reason: string) => void
}

/**
 * Opens `name` at version `list.length` on `factory`, running the migrations it lacks. This is
 * idb's `openDB` with the factory as a parameter (`openDB` always uses the global one).
 *
 * The connection gets out of the way of others: when another one wants a newer version or to
 * delete the database, it closes, and when the browser ends it, it reports so to `onClosed`.
 */
export async function openDatabase(
  factory: IDBFactory,
  name: string,
  list: readonly Migration[],
  { onClosed }: OpenDatabaseOptions = {},
): Promise<IDBPDatabase<StoreDB>> {
  const request = factory.open(name, list.length)
  let failure: { error: unknown } | undefined
  request.addEventListener('upgradeneeded', (event) => {
    const db = wrap(request.result) as unknown as IDBPDatabase<StoreDB>
    const tx = wrap(request.transaction as IDBTransaction) as unknown as UpgradeTransaction
    tx.done.catch(() => {}) // An aborted upgrade fails the open request, which reports it.
    try {
      runMigrations(list, db, tx, event.oldVersion, event.newVersion ?? list.length)
    } catch (error) {
      failure = { error }
      tx.abort()
    }
  })
  let db: IDBPDatabase<StoreDB>
  try {
    db = (await wrap(request)) as unknown as IDBPDatabase<StoreDB>
  } catch (error) {
    throw failure ? failure.error : error
  }
  let closed = false
  const close = (reason: string): void => {
    if (closed) return
    closed = true
    onClosed?.(reason)
  }
  db.addEventListener('versionchange', () => {
    db.close()
    close(`Database ${name} was closed: another connection is upgrading or deleting it`)
  })
  db.addEventListener('close', () => close(`Database ${name} was closed by the browser`))
  return db
}
