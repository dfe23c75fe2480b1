import type { PoolClient, QueryResultRow } from 'pg'
import { InvalidError, StoreClosedError } from '../../engine/errors'
import {
  StoreConflictError,
  type Json,
  type KeyvEntry,
  type Mutation,
  type ProcRecord,
  type ScanOptions,
  type SecretRecord,
  type Store,
  type StoreReader,
  type StoreSnapshot,
} from '../../engine/store'
import { compareSecrets, prefixEnd, scanLimit } from '../key-order'
import { checkExpectedSecret } from '../preconditions'
import { openPgDatabase, type PgDatabase, type PgDatabaseOptions } from './pg-connection'
import {
  migrate,
  schemaIdentifier,
  SECRET_KEY_UNIQUE,
  statements,
  type Statement,
} from './pg-schema'

export interface PgStoreOptions extends PgDatabaseOptions {
  /** The PostgreSQL schema that holds the tables; default `service_playground`. */
  schema?: string
}

/** The schema of the account `serve --data postgres://…` answers for. */
export const MAIN_SCHEMA = 'service_playground'

/** A string as stored and ordered: its UTF-16BE bytes (see `pg-schema.ts`). */
const utf16 = (text: string): Buffer => Buffer.from(text, 'utf16le').swap16()
const fromUtf16 = (bytes: Buffer): string => Buffer.from(bytes).swap16().toString('utf16le')

const parse = <T>(text: string): T => JSON.parse(text) as T

function jsonText(value: unknown): string {
  const text = JSON.stringify(value)
  if (text === undefined) throw new TypeError(`${String(value)} is not a JSON value`)
  return text
}

/** The last write of each entry in a run of writes: one statement may touch a row only once. */
function lastOfEach<T>(items: readonly T[], id: (item: T) => string): T[] {
  return [...new Map(items.map((item) => [id(item), item])).values()]
}

/** Turns the store's "one key, one secret" constraint into its conflict error. */
function keyTaken(id: string) {
  return (error: { constraint?: string }): never => {
    if (error.constraint !== SECRET_KEY_UNIQUE) throw error
    throw new StoreConflictError(`another secret already has the key of secret ${id}`)
  }
}

/** What a commit does on its connection, prepared before the commit waits its turn. */
type Step = (client: PoolClient) => Promise<unknown>

/**
 * Opens the PostgreSQL database at `url` (`postgres://user:password@host:port/database`) as a
 * `Store`, creating or upgrading its tables first. Any number of stores, in any number of
 * processes, may share one database: each commit is one transaction, `expectSecret` locks the
 * secret it names until the commit ends, a commit resolves only once PostgreSQL has committed
 * it, and no two secrets may have the same key (the commit that would make a second one fails
 * with `StoreConflictError`). Within one store, commits apply in call order.
 *
 * While the database cannot be reached every call fails with a 503 `ServiceError`; the first
 * call after it is back opens a new connection, so nothing needs restarting.
 */
export async function openPgStore(url: string, options: PgStoreOptions = {}): Promise<Store> {
  const db = await openPgDatabase(url, options)
  const schema = schemaIdentifier(options.schema ?? MAIN_SCHEMA)
  try {
    await db.atStart((client) => migrate(client, schema, db.where))
  } catch (error) {
    await db.end()
    throw error
  }
  return createPgStore(db, schema, { ownsDatabase: true })
}

/**
 * The store of the account whose tables are in `schema` (created or brought up to date
 * already: see `migrate`), over a database other things may share. Closing it ends the
 * database's connections only when it `ownsDatabase`.
 */
export function createPgStore(
  db: PgDatabase,
  schema: string,
  { ownsDatabase = false, prepared = true }: { ownsDatabase?: boolean; prepared?: boolean } = {},
): Store {
  const s = schemaIdentifier(schema)
  const sql = statements(s, prepared)
  let closed = false
  let queue: Promise<unknown> = Promise.resolve()

  function open(): void {
    if (closed) throw new StoreClosedError()
  }

  const read = async <R extends QueryResultRow>(statement: Statement, values: unknown[] = []) => {
    open()
    return db.query<R>(statement, values)
  }

  const run =
    (text: string | Statement, values?: unknown[]): Step =>
    (client) =>
      client.query(typeof text === 'string' ? { text, values } : { ...text, values })

  const setKeys = (entries: readonly KeyvEntry[]): Step => {
    const last = lastOfEach(entries, ({ bucket, key }) => jsonText([bucket, key]))
    return run(sql.setKeys, [
      last.map(({ bucket }) => utf16(bucket)),
      last.map(({ key }) => utf16(key)),
      last.map(({ value }) => jsonText(value)),
    ])
  }

  function restore(snapshot: StoreSnapshot): Step[] {
    const meta = Object.entries(snapshot.meta)
    const secrets = lastOfEach(snapshot.secrets, (secret) => jsonText(secret.id))
    const procs = lastOfEach(snapshot.procs, (proc) => jsonText(proc.name))
    const insertSecrets = run(sql.insertSecrets, [
      secrets.map(({ id }) => utf16(id)),
      secrets.map(({ key }) => utf16(key)),
      secrets.map((secret) => jsonText(secret)),
    ])
    return [
      run(sql.clear),
      run(sql.insertMeta, [meta.map(([key]) => utf16(key)), meta.map(([, v]) => jsonText(v))]),
      // Only an import restores: a snapshot whose secrets share a key is bad input, a 400.
      (client) =>
        insertSecrets(client).catch((error: { constraint?: string }) => {
          if (error.constraint !== SECRET_KEY_UNIQUE) throw error
          throw new InvalidError(
            'invalid snapshot: two of its secrets have the same key; give each secret a key of its own',
          )
        }),
      setKeys(snapshot.keyv),
      run(sql.insertProcs, [procs.map(({ name }) => utf16(name)), procs.map((p) => jsonText(p))]),
    ]
  }

  /** Turns mutations into statements; throws, before anything runs, on one it cannot store. */
  function prepare(mutations: readonly Mutation[]): Step[] {
    const steps: Step[] = []
    for (let i = 0; i < mutations.length; i++) {
      const mutation = mutations[i]!
      switch (mutation.op) {
        case 'putMeta':
        case 'initMeta':
          steps.push(
            run(mutation.op === 'putMeta' ? sql.putMeta : sql.initMeta, [
              utf16(mutation.key),
              jsonText(mutation.value),
            ]),
          )
          break
        case 'deleteMeta':
          steps.push(run(sql.deleteMeta, [utf16(mutation.key)]))
          break
        case 'deleteSecret':
          steps.push(run(sql.deleteSecret, [utf16(mutation.id)]))
          break
        case 'putSecret': {
          const { secret } = mutation
          const put = run(sql.putSecret, [utf16(secret.id), utf16(secret.key), jsonText(secret)])
          steps.push((client) => put(client).catch(keyTaken(secret.id)))
          break
        }
        case 'expectSecret': {
          const expected = mutation
          steps.push(async (client) => {
            const { rows } = await client.query<{ record: string }>({
              ...sql.lockSecret,
              values: [utf16(expected.id)],
            })
            const row = rows[0]
            checkExpectedSecret(row && parse<SecretRecord>(row.record), expected)
          })
          break
        }
        case 'setKey':
        case 'deleteKey': {
          // A run of writes of one kind is one statement.
          let end = i + 1
          while (mutations[end]?.op === mutation.op) end++
          const writes = mutations.slice(i, end) as (Mutation & { op: 'setKey' | 'deleteKey' })[]
          i = end - 1
          steps.push(
            mutation.op === 'setKey'
              ? setKeys(writes as KeyvEntry[])
              : run(sql.deleteKeys, [
                  writes.map(({ bucket }) => utf16(bucket)),
                  writes.map(({ key }) => utf16(key)),
                ]),
          )
          break
        }
        case 'putProc':
          steps.push(run(sql.putProc, [utf16(mutation.proc.name), jsonText(mutation.proc)]))
          break
        case 'deleteProc':
          steps.push(run(sql.deleteProc, [utf16(mutation.name)]))
          break
        case 'clear':
          // Replacing everything waits for the updates that count (see `update`).
          steps.push(run(sql.lockUpdates), run(sql.clear))
          break
        case 'restore':
          steps.push(run(sql.lockUpdates), ...restore(mutation.snapshot))
          break
        default:
          throw new TypeError(`Unknown mutation: ${String((mutation as { op?: unknown }).op)}`)
      }
    }
    return steps
  }

  /** A scan's keys, read through `query` (the pool's, or a transaction's connection). */
  async function scanWith(
    query: <R extends QueryResultRow>(statement: Statement, values: unknown[]) => Promise<R[]>,
    bucket: string,
    { prefix, after, limit }: ScanOptions,
  ) {
    const count = scanLimit(limit)
    if (count === 0) return []
    const end = prefixEnd(prefix)
    // Keys with the prefix; strictly after `after` when that falls among them.
    const strictly = after !== undefined && after >= prefix
    const { scans } = sql
    const statement = strictly
      ? end === undefined
        ? scans.after
        : scans.afterBelow
      : end === undefined
        ? scans.from
        : scans.fromBelow
    const from = utf16(strictly ? after : prefix)
    const most = Number.isFinite(count) ? count : null
    const values = [utf16(bucket), from, most, ...(end === undefined ? [] : [utf16(end)])]
    const rows = await query<{ key: Buffer }>(statement, values)
    return rows.map(({ key }) => fromUtf16(key))
  }

  const scanKeys = (bucket: string, options: ScanOptions) => scanWith(read, bucket, options)

  /** Everything, as the connection's transaction sees it. */
  async function snapshotOn(client: PoolClient): Promise<StoreSnapshot> {
    const all = <R extends QueryResultRow>(statement: Statement) =>
      client.query<R>(statement).then(({ rows }) => rows)
    const meta = await all<{ key: Buffer; value: string }>(sql.allMeta)
    const secrets = await all<{ record: string }>(sql.allSecrets)
    const keyv = await all<{ bucket: Buffer; key: Buffer; value: string }>(sql.allKeys)
    const procs = await all<{ record: string }>(sql.allProcs)
    return {
      meta: Object.fromEntries(meta.map(({ key, value }) => [fromUtf16(key), parse<Json>(value)])),
      secrets: secrets.map(({ record }) => parse<SecretRecord>(record)).sort(compareSecrets),
      keyv: keyv.map(({ bucket, key, value }) => ({
        bucket: fromUtf16(bucket),
        key: fromUtf16(key),
        value: parse<Json>(value),
      })),
      procs: procs.map(({ record }) => parse<ProcRecord>(record)),
    }
  }

  const snapshot = async () => {
    open()
    return db.connect(async (client) => {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
      try {
        return await snapshotOn(client)
      } finally {
        await client.query('COMMIT')
      }
    })
  }

  /** What `update`'s plan reads: the store as its transaction sees it. */
  function readerOn(client: PoolClient): StoreReader {
    const one = async <R extends QueryResultRow>(statement: Statement, values: unknown[]) =>
      (await client.query<R>({ ...statement, values })).rows[0]
    return {
      getMeta: async (key) =>
        ((row) => row && parse<Json>(row.value))(
          await one<{ value: string }>(sql.getMeta, [utf16(key)]),
        ),
      getSecret: async (id) =>
        ((row) => row && parse<SecretRecord>(row.record))(
          await one<{ record: string }>(sql.getSecret, [utf16(id)]),
        ),
      getKey: async (bucket, key) =>
        ((row) => row && parse<Json>(row.value))(
          await one<{ value: string }>(sql.getKey, [utf16(bucket), utf16(key)]),
        ),
      scanKeys: (bucket, options) =>
        scanWith(
          async (statement, values) => (await client.query({ ...statement, values })).rows,
          bucket,
          options,
        ),
      getProc: async (name) =>
        ((row) => row && parse<ProcRecord>(row.record))(
          await one<{ record: string }>(sql.getProc, [utf16(name)]),
        ),
      snapshot: () => snapshotOn(client),
    }
  }

  /** Runs after every commit and update this store was given before, in call order. */
  function inTurn(run: () => Promise<void>): Promise<void> {
    // One at a time, in call order; other processes' transactions interleave freely.
    const done = queue.then(run)
    queue = done.catch(() => undefined)
    return done
  }

  return {
    async getMeta(key) {
      const [row] = await read<{ value: string }>(sql.getMeta, [utf16(key)])
      return row && parse<Json>(row.value)
    },
    async getSecret(id) {
      const [row] = await read<{ record: string }>(sql.getSecret, [utf16(id)])
      return row && parse<SecretRecord>(row.record)
    },
    async listSecrets() {
      const rows = await read<{ record: string }>(sql.allSecrets)
      return rows.map(({ record }) => parse<SecretRecord>(record)).sort(compareSecrets)
    },
    async getKey(bucket, key) {
      const [row] = await read<{ value: string }>(sql.getKey, [utf16(bucket), utf16(key)])
      return row && parse<Json>(row.value)
    },
    scanKeys,
    async listBuckets() {
      const rows = await read<{ bucket: Buffer; n: number }>(sql.buckets)
      return rows.map(({ bucket, n }) => ({ bucket: fromUtf16(bucket), keys: n }))
    },
    async getProc(name) {
      const [row] = await read<{ record: string }>(sql.getProc, [utf16(name)])
      return row && parse<ProcRecord>(row.record)
    },
    async listProcs() {
      const rows = await read<{ record: string }>(sql.allProcs)
      return rows.map(({ record }) => parse<ProcRecord>(record))
    },
    commit(mutations) {
      let steps: Step[]
      try {
        open()
        steps = prepare(mutations)
      } catch (error) {
        return Promise.reject(error)
      }
      return inTurn(async () => {
        if (steps.length === 0) return
        await db.transact(async (client) => {
          for (const step of steps) await step(client)
        })
      })
    },
    update(plan) {
      try {
        open()
      } catch (error) {
        return Promise.reject(error)
      }
      // Every update of this schema, in any process, holds one lock from its first read to
      // its commit: what the plan read is what it changes.
      return inTurn(() =>
        db.transact(async (client) => {
          for (const step of prepare(await plan(readerOn(client)))) await step(client)
        }, `BEGIN; ${sql.lockUpdates.text}`),
      )
    },
    snapshot,
    async close() {
      if (closed) return
      closed = true
      await queue
      if (ownsDatabase) await db.end()
    },
  }
}
