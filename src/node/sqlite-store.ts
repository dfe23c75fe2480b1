import type {
  Json,
  Mutation,
  ProcRecord,
  ScanOptions,
  SecretRecord,
  Store,
  StoreSnapshot,
} from '../engine/store'
import { compareSecrets, compareStrings, prefixEnd, scanLimit } from '../storage/key-order'
import { checkExpectedSecret } from '../storage/preconditions'

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

const parse = <T>(text: string): T => JSON.parse(text) as T

/**
 * Opens (creating if needed) the SQLite database at `path` as a `Store`: `serve --data`. Every
 * commit is one transaction, written to disk before `commit` resolves (WAL, synchronous FULL),
 * so whatever the service acknowledged survives a crash. `:memory:` gives a throwaway one.
 */
export async function openSqliteStore(path: string): Promise<Store> {
  // Loaded on demand: better-sqlite3 is an optional dependency, needed only for `--data`.
  const { default: Database } = await import('better-sqlite3').catch(() => {
    throw new Error(
      'keeping data needs the optional dependency better-sqlite3: add it to your project (npm i -D better-sqlite3) or leave out --data',
    )
  })
  const db = new Database(path)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = FULL')
  db.exec(schema)

  const q = {
    getMeta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
    putMeta: db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)'),
    initMeta: db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)'),
    allMeta: db.prepare<[], { key: string; value: string }>('SELECT key, value FROM meta'),
    getSecret: db.prepare<[string], { record: string }>('SELECT record FROM secrets WHERE id = ?'),
    putSecret: db.prepare('INSERT OR REPLACE INTO secrets (id, record) VALUES (?, ?)'),
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
      case 'putSecret':
        q.putSecret.run(mutation.secret.id, JSON.stringify(mutation.secret))
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

  return {
    getMeta: async (key) => {
      const row = q.getMeta.get(key)
      return row && parse<Json>(row.value)
    },
    getSecret: async (id) => {
      const row = q.getSecret.get(id)
      return row && parse<SecretRecord>(row.record)
    },
    listSecrets: async () =>
      q.allSecrets
        .all()
        .map(({ record }) => parse<SecretRecord>(record))
        .sort(compareSecrets),
    getKey: async (bucket, key) => {
      const row = q.getKey.get(bucket, sortKey(key))
      return row && parse<Json>(row.value)
    },
    scanKeys: async (bucket, options) => scan(bucket, options),
    // Sorted here: SQLite orders TEXT as UTF-8, not in code units.
    listBuckets: async () =>
      q.bucketCounts
        .all()
        .map(({ bucket, n }) => ({ bucket, keys: n }))
        .sort((a, b) => compareStrings(a.bucket, b.bucket)),
    getProc: async (name) => {
      const row = q.getProc.get(name)
      return row && parse<ProcRecord>(row.record)
    },
    listProcs: async () =>
      q.allProcs
        .all()
        .map(({ record }) => parse<ProcRecord>(record))
        .sort((a, b) => compareStrings(a.name, b.name)),
    commit: async (mutations) => commit(mutations),
    snapshot: async () => snapshot(),
    async close() {
      if (db.open) db.close()
    },
  }
}
