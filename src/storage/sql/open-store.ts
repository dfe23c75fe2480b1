import type { OperatorModes } from '../../engine/operator/state'
import type { Store } from '../../engine/store'
import type { OpenedData } from './account-shelf'
import { describeDatabase } from './pg-connection'
import type { SqliteStoreOptions } from './sqlite-store'

export type { OpenedData } from './account-shelf'

/** Whether `--data` names a PostgreSQL database rather than a SQLite file. */
export const isPostgresUrl = (data: string): boolean => /^postgres(ql)?:\/\//i.test(data)

/**
 * The store `serve --data <data>` keeps the account in: a `postgres://` or `postgresql://` URL
 * opens PostgreSQL, which any number of `serve` processes may share; anything else is the path
 * of a SQLite file, for one process. Each driver is loaded only when chosen, and each is an
 * optional dependency: a missing one is named, with how to install it.
 */
export async function openStore(data: string, options: SqliteStoreOptions = {}): Promise<Store> {
  if (isPostgresUrl(data)) return (await import('./pg-store')).openPgStore(data)
  return (await import('./sqlite-store')).openSqliteStore(data, options)
}

/**
 * Opens what `serve --data <data>` keeps. In PostgreSQL, everything that makes the service one
 * service: the account, its operator's controls (set to `modes`, the process's flags) and the
 * hosted accounts, so that any number of processes over it answer alike. In a SQLite file, the
 * account and the list of hosted accounts, for one process, each hosted account's data in a
 * file of its own beside it (`<file>.accounts/<id>.db`).
 */
export async function openServeData(
  data: string,
  modes: OperatorModes,
  options: SqliteStoreOptions = {},
): Promise<OpenedData> {
  if (isPostgresUrl(data)) return (await import('./pg-data')).openPgData(data, modes)
  const { openSqliteFile, openSqliteStore } = await import('./sqlite-store')
  const file = await openSqliteFile(data, options)
  try {
    const { openSqliteShelf } = await import('./sqlite-accounts')
    const shelf = await openSqliteShelf(file, `${data}.accounts`, (path) =>
      openSqliteStore(path, options),
    )
    return { store: file.store, shelf }
  } catch (error) {
    await file.store.close()
    throw error
  }
}

/** What `serve` prints about where it keeps the account; never a password. */
export function describeData(data: string): string {
  if (!isPostgresUrl(data)) {
    return `${data} (SQLite, held by this process, pid ${process.pid}; every write is on disk before it is answered)`
  }
  return `postgres://${describeDatabase(data)} (PostgreSQL, shared by every serve over it; every write is committed before it is answered)`
}
