// What a commit of the PostgreSQL store runs: each mutation as a statement, prepared before the
// commit waits its turn, so that one it cannot store throws before anything runs.

import type { PoolClient } from 'pg'
import { InvalidError } from '../../engine/errors'
import {
  StoreConflictError,
  type KeyvEntry,
  type Mutation,
  type SecretRecord,
  type StoreSnapshot,
} from '../../engine/store'
import { checkExpectedSecret } from '../preconditions'
import { SECRET_KEY_UNIQUE, type Statement, type Statements as Sql } from './pg-schema'
import { jsonText, parse, utf16 } from './pg-values'

/** What a commit does on its connection, prepared before the commit waits its turn. */
export type Step = (client: PoolClient) => Promise<unknown>

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

/** A statement with its values, as a step. */
export const run =
  (text: string | Statement, values?: unknown[]): Step =>
  (client) =>
    client.query(typeof text === 'string' ? { text, values } : { ...text, values })

/** Sets each entry's value (the last of each, when one repeats) in one statement. */
const setKeys = (sql: Sql, entries: readonly KeyvEntry[]): Step => {
  const last = lastOfEach(entries, ({ bucket, key }) => jsonText([bucket, key]))
  return run(sql.setKeys, [
    last.map(({ bucket }) => utf16(bucket)),
    last.map(({ key }) => utf16(key)),
    last.map(({ value }) => jsonText(value)),
  ])
}

/** Replaces everything with `snapshot`. */
function restore(sql: Sql, snapshot: StoreSnapshot): Step[] {
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
    setKeys(sql, snapshot.keyv),
    run(sql.insertProcs, [procs.map(({ name }) => utf16(name)), procs.map((p) => jsonText(p))]),
  ]
}

/** Turns mutations into statements; throws, before anything runs, on one it cannot store. */
export function writeSteps(sql: Sql, mutations: readonly Mutation[]): Step[] {
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
            ? setKeys(sql, writes as KeyvEntry[])
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
        steps.push(run(sql.lockUpdates), ...restore(sql, mutation.snapshot))
        break
      default:
        throw new TypeError(`Unknown mutation: ${String((mutation as { op?: unknown }).op)}`)
    }
  }
  return steps
}
