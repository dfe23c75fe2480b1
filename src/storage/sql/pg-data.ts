import type { OperatorModes } from '../../engine/operator/state'
import type { OpenedData } from './account-shelf'
import { pgShelf, sweepPgShelf } from './pg-accounts'
import { openPgDatabase } from './pg-connection'
import { openPgOperator } from './pg-operator'
import { migrate } from './pg-schema'
import { createPgStore, MAIN_SCHEMA } from './pg-store'

/**
 * Everything `serve --data postgres://…` keeps in the database, over one pool of connections:
 * the server's own account (its store, and its operator's controls, set to this process's
 * `modes` as a start with those flags does) and the accounts hosted beside it. Closing the
 * store closes the pool.
 */
export async function openPgData(url: string, modes: OperatorModes): Promise<OpenedData> {
  const db = await openPgDatabase(url)
  try {
    await db.atStart((client) => migrate(client, MAIN_SCHEMA, db.where))
    await sweepPgShelf(db, MAIN_SCHEMA)
    return {
      store: createPgStore(db, MAIN_SCHEMA, { ownsDatabase: true }),
      operator: await openPgOperator(db, MAIN_SCHEMA, modes, { apply: true }),
      shelf: pgShelf(db, MAIN_SCHEMA, modes),
    }
  } catch (error) {
    await db.end()
    throw error
  }
}
