/**
 * Opening a SQLite data file: the exclusive lock, the integrity check, the schema and the
 * prepared statements, or a `DataFileError` that says in a sentence why not.
 */
import type BetterSqlite3 from 'better-sqlite3'
import { holderOf } from './data-file-lock'
import { DataFileError, isSqliteError } from './sqlite-errors'

const schema = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS secrets (id TEXT PRIMARY KEY, record TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS keyv (
    bucket TEXT NOT NULL, sort BLOB NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
    PRIMARY KEY (bucket, sort)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS procs (name TEXT PRIMARY KEY, record TEXT NOT NULL);
`

/** Opens the file and takes its lock, or says in a sentence why not. */
export function openLocked(Database: typeof BetterSqlite3, path: string) {
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

/** The statements the store runs, or a `DataFileError` when the file is not one serve wrote. */
export function prepare(db: BetterSqlite3.Database, path: string) {
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
