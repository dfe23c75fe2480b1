/**
 * The account's `Store` in a SQLite file (`serve --data FILE`): every commit one transaction on
 * disk before it resolves. Opening the file is `sqlite-open.ts`, its lock file
 * `data-file-lock.ts`, what its errors mean `sqlite-errors.ts`.
 */
import type BetterSqlite3 from 'better-sqlite3'
import { StoreClosedError } from '../../engine/errors'
import type {
  Json,
  Mutation,
  ProcRecord,
  ScanOptions,
  SecretRecord,
  Store,
  StoreSnapshot,
} from '../../engine/store'
import { compareSecrets, compareStrings, prefixEnd, scanLimit } from '../key-order'
import { checkExpectedSecret } from '../preconditions'
import { dropHolder, writeHolder } from './data-file-lock'
import { parse, storageError } from './sqlite-errors'
import { openLocked, prepare } from './sqlite-open'

export { DataFileError } from './sqlite-errors'

/**
 * A key as SQLite orders it: UTF-16BE bytes, whose byte order (SQLite compares blobs with
 * memcmp) is the UTF-16 code-unit order of `<`, which the Store contract asks for. Text would
 * sort as UTF-8, which differs for characters above U+FFFF.
 */
function sortKey(key: string): Buffer {
  const bytes = Buffer.from(key, 'utf16le')
  return bytes.swap16()
}

export interface SqliteStoreOptions {
  /**
   * Told once when the file stops working while the store is open (its disk is full, it is
   * damaged, it cannot be read or written), and once when writes work again: a log line, not
   * one per request. Default: `console.error`.
   */
  report?: (message: string) => void
}
/** An open data file: its store, and what else may keep tables in the same file. */
export interface SqliteFile {
  store: Store
  /** The connection, for tables kept beside the account's (the hosted accounts' list). */
  db: BetterSqlite3.Database
  /**
   * Runs `run`, turning what SQLite's errors mean for the service into a `ServiceError` (507
   * when the disk is full, 503 when the file is damaged or unusable), said once on the log.
   */
  guard<T>(run: () => T): T
}

/**
 * Opens (creating if needed) the SQLite database at `path` as a `Store`: `serve --data`. Every
 * commit is one transaction, written to disk before `commit` resolves (WAL, synchronous FULL),
 * so whatever the service acknowledged survives a crash. One process holds the file at a time
 * (an exclusive SQLite lock; `<path>.lock` names the process, for the message another gets). A
 * damaged file is refused at open; once open, a full disk answers 507 and damage 503.
 * `:memory:` gives a throwaway one.
 */
export async function openSqliteStore(
  path: string,
  options: SqliteStoreOptions = {},
): Promise<Store> {
  return (await openSqliteFile(path, options)).store
}

/** `openSqliteStore`, with the connection and its error guard for tables kept beside it. */
export async function openSqliteFile(
  path: string,
  { report = (message) => console.error(message) }: SqliteStoreOptions = {},
): Promise<SqliteFile> {
  // Loaded on demand: better-sqlite3 is an optional dependency, needed only for `--data`.
  const { default: Database } = await import('better-sqlite3').catch(() => {
    throw new Error(
      'keeping data needs the optional dependency better-sqlite3: add it to your project (npm i -D better-sqlite3) or leave out --data',
    )
  })
  const db = openLocked(Database, path)
  const q = prepare(db, path)
  const onDisk = path !== ':memory:' && path !== ''
  if (onDisk) {
    writeHolder(path)
  }

  function clear(): void {
    db.exec('DELETE FROM meta; DELETE FROM secrets; DELETE FROM keyv; DELETE FROM procs;')
  }

  function restore(snapshot: StoreSnapshot): void {
    clear()
    for (const [key, value] of Object.entries(snapshot.meta))
      q.putMeta.run(key, JSON.stringify(value))
    for (const secret of snapshot.secrets) q.putSecret.run(secret.id, JSON.stringify(secret))
    for (const { bucket, key, value } of snapshot.keyv) {
      q.setKey.run(bucket, sortKey(key), key, JSON.stringify(value))
    }
    for (const proc of snapshot.procs) q.putProc.run(proc.name, JSON.stringify(proc))
  }

  function apply(mutation: Mutation): void {
    switch (mutation.op) {
      case 'putMeta':
        q.putMeta.run(mutation.key, JSON.stringify(mutation.value))
        return
      case 'initMeta':
        q.initMeta.run(mutation.key, JSON.stringify(mutation.value))
        return
      case 'deleteMeta':
        q.deleteMeta.run(mutation.key)
        return
      case 'putSecret':
        q.putSecret.run(mutation.secret.id, JSON.stringify(mutation.secret))
        return
      case 'deleteSecret':
        q.deleteSecret.run(mutation.id)
        return
      case 'expectSecret': {
        const row = q.getSecret.get(mutation.id)
        checkExpectedSecret(row && parse<SecretRecord>(row.record), mutation)
        return
      }
      case 'setKey':
        q.setKey.run(
          mutation.bucket,
          sortKey(mutation.key),
          mutation.key,
          JSON.stringify(mutation.value),
        )
        return
      case 'deleteKey':
        q.deleteKey.run(mutation.bucket, sortKey(mutation.key))
        return
      case 'putProc':
        q.putProc.run(mutation.proc.name, JSON.stringify(mutation.proc))
        return
      case 'deleteProc':
        q.deleteProc.run(mutation.name)
        return
      case 'clear':
        clear()
        return
      case 'restore':
        restore(mutation.snapshot)
        return
      default:
        throw new TypeError(`Unknown mutation: ${String((mutation as { op?: unknown }).op)}`)
    }
  }

  const commit = db.transaction((mutations: readonly Mutation[]) => {
    for (const mutation of mutations) apply(mutation)
  })

  function scan(bucket: string, { prefix, after, limit }: ScanOptions): string[] {
    const count = scanLimit(limit)
    if (count === 0) return []
    const end = prefixEnd(prefix)
    // SQLite's LIMIT takes a 64-bit integer; -1 means none.
    const max = Number.isFinite(count) ? count : -1
    const rows =
      after !== undefined && after >= prefix
        ? q.scanAfter.all(bucket, sortKey(after), max)
        : q.scanFrom.all(bucket, sortKey(prefix), max)
    const keys: string[] = []
    for (const { key } of rows) {
      if (end !== undefined && key >= end) break
      keys.push(key)
    }
    return keys
  }

  const snapshot = db.transaction((): StoreSnapshot => ({
    meta: Object.fromEntries(q.allMeta.all().map(({ key, value }) => [key, parse<Json>(value)])),
    secrets: q.allSecrets
      .all()
      .map(({ record }) => parse<SecretRecord>(record))
      .sort(compareSecrets),
    keyv: q.allKeys
      .all()
      .map(({ bucket, key, value }) => ({ bucket, key, value: parse<Json>(value) }))
      .sort((a, b) => compareStrings(a.bucket, b.bucket)),
    procs: q.allProcs
      .all()
      .map(({ record }) => parse<ProcRecord>(record))
      .sort((a, b) => compareStrings(a.name, b.name)),
  }))

  /** Problems told once: the codes reported and not yet resolved. */
  const told = new Set<string>()
  function guard<T>(run: () => T): T {
    if (!db.open) throw new StoreClosedError()
    try {
      return run()
    } catch (error) {
      const problem = storageError(path, error)
      if (!problem) throw error
      if (!told.has(problem.code)) {
        told.add(problem.code)
        report(`${problem.message} (answering ${problem.status} until then)`)
      }
      throw problem
    }
  }

  const store: Store = {
    getMeta: async (key) =>
      guard(() => {
        const row = q.getMeta.get(key)
        return row && parse<Json>(row.value)
      }),
    getSecret: async (id) =>
      guard(() => {
        const row = q.getSecret.get(id)
        return row && parse<SecretRecord>(row.record)
      }),
    listSecrets: async () =>
      guard(() =>
        q.allSecrets
          .all()
          .map(({ record }) => parse<SecretRecord>(record))
          .sort(compareSecrets),
      ),
    getKey: async (bucket, key) =>
      guard(() => {
        const row = q.getKey.get(bucket, sortKey(key))
        return row && parse<Json>(row.value)
      }),
    scanKeys: async (bucket, options) => guard(() => scan(bucket, options)),
    // Sorted here: SQLite orders TEXT as UTF-8, not in code units.
    listBuckets: async () =>
      guard(() =>
        q.bucketCounts
          .all()
          .map(({ bucket, n }) => ({ bucket, keys: n }))
          .sort((a, b) => compareStrings(a.bucket, b.bucket)),
      ),
    getProc: async (name) =>
      guard(() => {
        const row = q.getProc.get(name)
        return row && parse<ProcRecord>(row.record)
      }),
    listProcs: async () =>
      guard(() =>
        q.allProcs
          .all()
          .map(({ record }) => parse<ProcRecord>(record))
          .sort((a, b) => compareStrings(a.name, b.name)),
      ),
    commit: async (mutations) => {
      guard(() => commit(mutations))
      if (told.delete('disk_full')) report(`the data file ${path} takes writes again`)
    },
    snapshot: async () => guard(() => snapshot()),
    async close() {
      if (!db.open) return
      try {
        db.close()
      } catch (error) {
        // Closing folds the write-ahead log into the file; when that fails (a full disk),
        // the log keeps every commit and the next open reads it.
        report(
          `closing ${path}: ${(error as Error).message}; its write-ahead log keeps every write`,
        )
      }
      if (onDisk) dropHolder(path)
    },
  }
  return { store, db, guard }
}
