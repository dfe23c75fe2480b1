/**
 * Vitest setup of the `postgres` project: the engine suites it runs (the operator's controls,
 * the rate limit, the account) run over PostgreSQL, each harness an account of its own in a
 * schema of the test file's database, its store and its operator's controls there, as
 * `serve --data postgres://…` keeps them.
 */
import { afterAll, inject } from 'vitest'
import type { OperatorModes } from '../engine/operator/state'
import { openPgDatabase } from '../storage/sql/pg-connection'
import { openPgOperator } from '../storage/sql/pg-operator'
import { migrate } from '../storage/sql/pg-schema'
import { createPgStore } from '../storage/sql/pg-store'
import { ACCOUNT } from './engine-harness'
import { createDatabase } from './postgres'

const db = await openPgDatabase(await createDatabase(inject('postgres'), 'harness'), {
  connections: 4,
})
let accounts = 0

;(globalThis as { [ACCOUNT]?: unknown })[ACCOUNT] = async (modes: OperatorModes) => {
  const schema = `harness_${++accounts}`
  await db.connect((client) => migrate(client, schema, db.where, 'hosted'))
  return { store: createPgStore(db, schema), operator: await openPgOperator(db, schema, modes) }
}

afterAll(() => db.end())
