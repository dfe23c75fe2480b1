import type { Pool, PoolClient, QueryResultRow } from 'pg'
import { InvalidError } from '../engine/errors'
import {
  StoreConflictError,
  type Json,
  type KeyvEntry,
  type Mutation,
  type ProcRecord,
  type ScanOptions,
  type SecretRecord,
  type Store,
  type StoreSnapshot,
} from '../engine/store'
import { compareSecrets, prefixEnd, scanLimit } from '../storage/key-order'
import { checkExpectedSecret } from '../storage/preconditions'
import { describeDatabase, isUnavailable, unavailable, withClient } from './pg-connection'
import {
  migrate,
  schemaIdentifier,
  SECRET_KEY_UNIQUE,
  statements,
  type Statement,
} from './pg-schema'

export interface PgStoreOptions {
  /** The PostgreSQL schema that holds the tables; default `service_playground`. */
  schema?: string
  /** Connections this store keeps open at most; default 10. */
  connections?: number
  /**
   * Milliseconds a statement may run, or wait on a lock another process holds, before it
   * gives up with a 503; default 10,000.
   */
  statementTimeout?: number
}

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
  // Loaded on demand: pg is an optional dependency, needed only for PostgreSQL.
  const { default: pg } = await import('pg').catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ERR_MODULE_NOT_FOUND' && error.code !== 'MODULE_NOT_FOUND') throw error
    throw new Error(
      'PostgreSQL needs the optional dependency pg: add it to your project (npm i -D pg), or give a file to keep the account in SQLite',
    )
  })
  const where = `PostgreSQL database ${describeDatabase(url)}`
  const s = schemaIdentifier(options.schema ?? 'service_playground')
  const sql = statements(s)
  const pool: Pool = new pg.Pool({
    connectionString: url,
    max: options.connections ?? 10,
    connectionTimeoutMillis: 5000,
    keepAlive: true,
    application_name: 'service-playground',
    statement_timeout: options.statementTimeout ?? 10_000,
    // A process that stops mid-transaction (frozen, not dead) lets go of its locks.
    idle_in_transaction_session_timeout: 30_000,
  })
  // An idle connection the server closed: the pool has already dropped it.
  pool.on('error', () => undefined)

  try {
    await withClient(pool, (client) => migrate(client, s, where))
  } catch (error) {
    await pool.end()
    // Errors of PostgreSQL or of the network carry a code; ours say where already.
    if (error instanceof Error && 'code' in error)
      throw new Error(`cannot open ${where}: ${error.message}`, { cause: error })
    throw error
  }

  let closed = false
  let queue: Promise<unknown> = Promise.resolve()

  /** Runs a call against the database, turning an unreachable one into a 503. */
  async function guard<T>(run: () => Promise<T>): Promise<T> {
    if (closed) throw new Error('the PostgreSQL store is closed')
    try {
      return await run()
    } catch (error) {
      throw isUnavailable(error) ? unavailable(error) : error
    }
  }

  const read = <R extends QueryResultRow>(statement: Statement, values: unknown[] = []) =>
    guard(() =>
      withClient(pool, async (client) => (await client.query<R>({ ...statement, values })).rows),
    )

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
          steps.push(run(sql.clear))
          break
        case 'restore':
          steps.push(...restore(mutation.snapshot))
          break
        default:
          throw new TypeError(`Unknown mutation: ${String((mutation as { op?: unknown }).op)}`)
      }
    }
    return steps
  }

  /** Runs the steps in one transaction; again from the start when PostgreSQL broke a deadlock. */
  async function transact(steps: readonly Step[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await withClient(pool, async (client, discard) => {
          await client.query('BEGIN')
          try {
            for (const step of steps) await step(client)
            await client.query('COMMIT')
          } catch (error) {
            // A connection that cannot even roll back is closed, not handed to the next caller.
            await client.query('ROLLBACK').catch(discard)
            throw error
          }
        })
      } catch (error) {
        const code = (error as { code?: unknown }).code
        if (attempt >= 5 || (code !== '40P01' && code !== '40001')) throw error
      }
    }
  }

  async function scanKeys(bucket: string, { prefix, after, limit }: ScanOptions) {
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
    const rows = await read<{ key: Buffer }>(statement, values)
    return rows.map(({ key }) => fromUtf16(key))
  }

  const snapshot = () =>
    guard(() =>
      withClient(pool, async (client): Promise<StoreSnapshot> => {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
        try {
          const all = <R extends QueryResultRow>(statement: Statement) =>
            client.query<R>(statement).then(({ rows }) => rows)
          const meta = await all<{ key: Buffer; value: string }>(sql.allMeta)
          const secrets = await all<{ record: string }>(sql.allSecrets)
          const keyv = await all<{ bucket: Buffer; key: Buffer; value: string }>(sql.allKeys)
          const procs = await all<{ record: string }>(sql.allProcs)
          return {
            meta: Object.fromEntries(
              meta.map(({ key, value }) => [fromUtf16(key), parse<Json>(value)]),
            ),
            secrets: secrets.map(({ record }) => parse<SecretRecord>(record)).sort(compareSecrets),
            keyv: keyv.map(({ bucket, key, value }) => ({
              bucket: fromUtf16(bucket),
              key: fromUtf16(key),
              value: parse<Json>(value),
            })),
            procs: procs.map(({ record }) => parse<ProcRecord>(record)),
          }
        } finally {
          await client.query('COMMIT')
        }
      }),
    )

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
        if (closed) throw new Error('the PostgreSQL store is closed')
        steps = prepare(mutations)
      } catch (error) {
        return Promise.reject(error)
      }
      // One commit at a time, in call order; other processes' commits interleave freely.
      const done = queue.then(() => (steps.length === 0 ? undefined : guard(() => transact(steps))))
      queue = done.catch(() => undefined)
      return done
    },
    snapshot,
    async close() {
      if (closed) return
      closed = true
      await queue
      await pool.end()
    },
  }
}
