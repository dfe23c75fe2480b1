import type { OperatorModes, OperatorState } from '../engine/operator/state'
import type { Store } from '../engine/store'
import { fileShelf, type AccountShelf } from './accounts'
import { describeDatabase } from './pg-connection'

/** Whether `--data` names a PostgreSQL database rather than a SQLite file. */
export const isPostgresUrl = (data: string): boolean => /^postgres(ql)?:\/\//i.test(data)

/**
 * The store `serve --data <data>` keeps the account in: a `postgres://` or `postgresql://` URL
 * opens PostgreSQL, which any number of `serve` processes may share; anything else is the path
 * of a SQLite file, for one process. Each driver is loaded only when chosen, and each is an
 * optional dependency: a missing one is named, with how to install it.
 */
export async function openStore(data: string): Promise<Store> {
  if (isPostgresUrl(data)) return (await import('./pg-store')).openPgStore(data)
  return (await import('./sqlite-store')).openSqliteStore(data)
}

/** What `serve --data` keeps: the server's account, and the accounts it hosts. */
export interface OpenedData {
  store: Store
  /** The server account's operator's controls, when they are kept with it (PostgreSQL). */
  operator?: OperatorState
  shelf: AccountShelf
}

/**
 * Opens what `serve --data <data>` keeps. In PostgreSQL, everything that makes the service
 * one service: the account, its operator's controls (set to `modes`, the process's flags) and
 * the hosted accounts, so any number of processes over it answer alike. In a SQLite file, the
 * account, with hosted accounts in files beside it (`<data>.accounts/`), for one process.
 */
export async function openData(data: string, modes: OperatorModes): Promise<OpenedData> {
  if (isPostgresUrl(data)) return (await import('./pg-data')).openPgData(data, modes)
  return { store: await openStore(data), shelf: fileShelf(`${data}.accounts`, openStore) }
}

/** What `serve` prints about where it keeps the account; never a password. */
export function describeData(data: string): string {
  if (!isPostgresUrl(data)) return `${data} (SQLite; every write is on disk before it is answered)`
  return `postgres://${describeDatabase(data)} (PostgreSQL, shared by every serve over it; every write is committed before it is answered)`
}
