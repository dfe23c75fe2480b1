import type { QueryResultRow } from 'pg'
import { StoreClosedError } from '../../engine/errors'
import {
  type Json,
  type ProcRecord,
  type ScanOptions,
  type SecretRecord,
  type Store,
} from '../../engine/store'
import { compareSecrets } from '../key-order'
import { readerOn, scanWith, snapshotOn } from './pg-reads'
import { fromUtf16, parse, utf16 } from './pg-values'
import { writeSteps, type Step } from './pg-writes'
import { openPgDatabase, type PgDatabase, type PgDatabaseOptions } from './pg-connection'
import { migrate, schemaIdentifier, statements, type Statement } from './pg-schema'

export interface PgStoreOptions extends PgDatabaseOptions {
  /** The PostgreSQL schema that holds the tables; default `service_playground`. */
  schema?: string
}

/** The schema of the account `serve --data postgres://…` answers for. */
export const MAIN_SCHEMA = 'service_playground'

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

  const scanKeys = (bucket: string, options: ScanOptions) => scanWith(sql, read, bucket, options)

  const snapshot = async () => {
    open()
    return db.connect(async (client) => {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
      try {
        return await snapshotOn(sql, client)
      } finally {
        await client.query('COMMIT')
      }
    })
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
        steps = writeSteps(sql, mutations)
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
          for (const step of writeSteps(sql, await plan(readerOn(sql, client)))) await step(client)
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
