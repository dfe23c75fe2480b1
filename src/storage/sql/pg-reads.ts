// What the PostgreSQL store reads on one connection: a scan, everything at once, and the reader
// an update's plan is given inside its transaction.

import type { PoolClient, QueryResultRow } from 'pg'
import type {
  Json,
  ProcRecord,
  ScanOptions,
  SecretRecord,
  StoreReader,
  StoreSnapshot,
} from '../../engine/store'
import { compareSecrets, prefixEnd, scanLimit } from '../key-order'
import type { Statement, Statements as Sql } from './pg-schema'
import { fromUtf16, parse, utf16 } from './pg-values'

/** A scan's keys, read through `query` (the pool's, or a transaction's connection). */
export async function scanWith(
  sql: Sql,
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

/** Everything, as the connection's transaction sees it. */
export async function snapshotOn(sql: Sql, client: PoolClient): Promise<StoreSnapshot> {
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

/** What `update`'s plan reads: the store as its transaction sees it. */
export function readerOn(sql: Sql, client: PoolClient): StoreReader {
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
        sql,
        async (statement, values) => (await client.query({ ...statement, values })).rows,
        bucket,
        options,
      ),
    getProc: async (name) =>
      ((row) => row && parse<ProcRecord>(row.record))(
        await one<{ record: string }>(sql.getProc, [utf16(name)]),
      ),
    snapshot: () => snapshotOn(sql, client),
  }
}
