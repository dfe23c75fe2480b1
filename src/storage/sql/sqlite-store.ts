import type BetterSqlite3 from 'better-sqlite3'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { ServiceError, StoreClosedError } from '../../engine/errors'
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

/**
 * A key as SQLite orders it: UTF-16BE bytes, whose byte order (SQLite compares blobs with
 * memcmp) is the UTF-16 code-unit order of `<`, which the Store contract asks for. Text would
 * sort as UTF-8, which differs for characters above U+FFFF.
 */
function sortKey(key: string): Buffer {
  const bytes = Buffer.from(key, 'utf16le')
  return bytes.swap16()
}

const schema = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS secrets (id TEXT PRIMARY KEY, record TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS keyv (
    bucket TEXT NOT NULL, sort BLOB NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
    PRIMARY KEY (bucket, sort)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS procs (name TEXT PRIMARY KEY, record TEXT NOT NULL);
`

/** A stored record that no longer reads as the JSON it was written as: the file is damaged. */
class DamagedRecord extends Error {}

const parse = <T>(text: string): T => {
  try {
    return JSON.parse(text) as T
  } catch (error) {
    // SQLite keeps no checksums: a damaged page can read back as a cut or garbled record.
    throw new DamagedRecord(`a record does not read back: ${(error as Error).message}`)
  }
}

export interface SqliteStoreOptions {
  /**
   * Told once when the file stops working while the store is open (its disk is full, it is
   * damaged, it cannot be read or written), and once when writes work again: a log line, not
   * one per request. Default: `console.error`.
   */
  report?: (message: string) => void
}

/** The data file cannot be used: in use by another process, damaged, not a database, unreadable. */
export class DataFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options)
    this.name = 'DataFileError'
  }
}

/** Who holds the data file, written beside it while a store has it open: for the message a second process gives. */
interface Holder {
  pid: number
  host: string
  since: string
}

const lockFileOf = (path: string) => `${path}.lock`

function readHolder(path: string): Holder | undefined {
  try {
    const holder = JSON.parse(readFileSync(lockFileOf(path), 'utf8')) as Partial<Holder>
    return typeof holder.pid === 'number' ? (holder as Holder) : undefined
  } catch {
    return undefined
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Who holds `path`, as far as its lock file says and this machine can tell. */
function holderOf(path: string): string {
  const holder = readHolder(path)
  if (holder && holder.host === hostname() && isRunning(holder.pid)) {
    return `process ${holder.pid} (serve, since ${holder.since})`
  }
  return 'another process'
}

function isSqliteError(error: unknown): error is Error & { code: string } {
  const code = (error as { code?: unknown } | null)?.code
  return error instanceof Error && typeof code === 'string' && code.startsWith('SQLITE_')
}

/**
 * What a SQLite error means for the service: 507 when the disk is full, 503 when the file is
 * damaged or cannot be read or written. `undefined` for any other error (a failed
 * precondition, say), which goes on as it is.
 */
function storageError(path: string, error: unknown): ServiceError | undefined {
  if (!isSqliteError(error) && !(error instanceof DamagedRecord)) return undefined
  const code = isSqliteError(error) ? error.code : 'SQLITE_CORRUPT'
  if (code === 'SQLITE_FULL') {
    return new ServiceError(
      507,
      'disk_full',
      `the disk holding the data file ${path} is full: nothing was written; free space there and try again`,
    )
  }
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return new ServiceError(
      503,
      'data_damaged',
      `the data file ${path} is damaged (${error.message}): nothing was written; stop serve and restore the file from a backup`,
    )
  }
  return new ServiceError(
    503,
    'data_unavailable',
    `the data file ${path} cannot be read or written (${error.message}): check the file and its disk`,
  )
}

/** Opens the file and takes its lock, or says in a sentence why not. */
function openLocked(Database: typeof BetterSqlite3, path: string) {
  let db: BetterSqlite3.Database | undefined
  try {
    // No busy wait: a file another process holds is refused at once.
    db = new Database(path, { timeout: 0 })
    // One process at a time: the exclusive lock is taken by the first read below and held
    // until the store is closed; the operating system drops it when a process dies, so a
    // killed serve never blocks the next one.
    db.pragma('locking_mode = EXCLUSIVE')
    db.pragma('journal_mode = WAL')
    const check = (db.pragma('quick_check(3)') as Array<{ quick_check: string }>)
      .flatMap((row) => row.quick_check.split('\n'))
      .filter((line) => line !== '' && !line.startsWith('***'))
    if (check.join() !== 'ok') {
      throw new DataFileError(
        path,
        `the file is damaged (integrity check: ${check.join('; ')}): restore it from a backup (an export), or move it away to start afresh`,
      )
    }
    db.pragma('synchronous = FULL')
    db.exec(schema)
    return db
  } catch (error) {
    db?.close()
    if (error instanceof DataFileError) throw error
    const code = isSqliteError(error) ? error.code : (error as { code?: string }).code
    const why = (error as Error).message
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
      throw new DataFileError(
        path,
        `the file is in use by ${holderOf(path)}: two processes cannot share one data file; stop that one first, or give another file`,
      )
    }
    if (code === 'SQLITE_NOTADB') {
      throw new DataFileError(
        path,
        `the file is not a SQLite database (${why}): give a new file name, or the file serve wrote`,
      )
    }
    if (code?.startsWith('SQLITE_CORRUPT')) {
      throw new DataFileError(
        path,
        `the file is damaged (${why}): restore it from a backup (an export), or move it away to start afresh`,
      )
    }
    throw new DataFileError(
      path,
      `cannot open the file (${why}): check that its folder exists and is writable`,
      { cause: error },
    )
  }
}

function prepare(db: BetterSqlite3.Database, path: string) {
  try {
    return {
      getMeta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
      putMeta: db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)'),
      initMeta: db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)'),
      deleteMeta: db.prepare('DELETE FROM meta WHERE key = ?'),
      allMeta: db.prepare<[], { key: string; value: string }>('SELECT key, value FROM meta'),
      getSecret: db.prepare<[string], { record: string }>(
        'SELECT record FROM secrets WHERE id = ?',
      ),
      putSecret: db.prepare('INSERT OR REPLACE INTO secrets (id, record) VALUES (?, ?)'),
      deleteSecret: db.prepare('DELETE FROM secrets WHERE id = ?'),
      allSecrets: db.prepare<[], { record: string }>('SELECT record FROM secrets'),
      getKey: db.prepare<[string, Buffer], { value: string }>(
        'SELECT value FROM keyv WHERE bucket = ? AND sort = ?',
      ),
      setKey: db.prepare(
        'INSERT OR REPLACE INTO keyv (bucket, sort, key, value) VALUES (?, ?, ?, ?)',
      ),
      deleteKey: db.prepare('DELETE FROM keyv WHERE bucket = ? AND sort = ?'),
      scanFrom: db.prepare<[string, Buffer, number], { key: string }>(
        'SELECT key FROM keyv WHERE bucket = ? AND sort >= ? ORDER BY sort LIMIT ?',
      ),
      scanAfter: db.prepare<[string, Buffer, number], { key: string }>(
        'SELECT key FROM keyv WHERE bucket = ? AND sort > ? ORDER BY sort LIMIT ?',
      ),
      bucketCounts: db.prepare<[], { bucket: string; n: number }>(
        'SELECT bucket, COUNT(*) AS n FROM keyv GROUP BY bucket',
      ),
      allKeys: db.prepare<[], { bucket: string; key: string; value: string }>(
        'SELECT bucket, key, value FROM keyv ORDER BY bucket, sort',
      ),
      getProc: db.prepare<[string], { record: string }>('SELECT record FROM procs WHERE name = ?'),
      putProc: db.prepare('INSERT OR REPLACE INTO procs (name, record) VALUES (?, ?)'),
      deleteProc: db.prepare('DELETE FROM procs WHERE name = ?'),
      allProcs: db.prepare<[], { record: string }>('SELECT record FROM procs'),
    }
  } catch (error) {
    db.close()
    throw new DataFileError(
      path,
      `the file is a SQLite database, but not one serve wrote (${(error as Error).message}): give a new file name, or the file serve wrote`,
    )
  }
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
    const holder: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString() }
    try {
      writeFileSync(lockFileOf(path), `${JSON.stringify(holder)}\n`)
    } catch {
      // Only a courtesy to the next process's message: the lock itself is SQLite's.
    }
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
      if (onDisk && readHolder(path)?.pid === process.pid) rmSync(lockFileOf(path), { force: true })
    },
  }
  return { store, db, guard }
}
