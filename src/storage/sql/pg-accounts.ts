import { StoreClosedError } from '../../engine/errors'
import type { OperatorModes } from '../../engine/operator/state'
import { ACCOUNT_ID_PATTERN, type AccountShelf, type HostedAccount } from './account-shelf'
import type { PgDatabase } from './pg-connection'
import { openPgOperator } from './pg-operator'
import { migrate, schemaIdentifier } from './pg-schema'
import { createPgStore } from './pg-store'

interface AccountRow {
  id: string
  created_at: number
  control_token_hash: string
  secrets: string
}

const account = (row: AccountRow): HostedAccount => ({
  id: row.id,
  createdAt: row.created_at,
  controlTokenHash: row.control_token_hash,
  secrets: JSON.parse(row.secrets) as string[],
})

/**
 * The accounts hosted beside the server's own, in its PostgreSQL database: listed in
 * `<server>.accounts` (each control token as its SHA-256 only), each in a schema of its own,
 * `<server>_a_<id>`, with the tables of an account (store and operator's controls) — isolated
 * as a database of its own would be. Every process over the database reads the list as it is
 * now: an account one process makes, any answers; one it deletes (the schema dropped with
 * everything in it), none finds. `max` is held across processes: accounts are counted and
 * added under one lock.
 */
export function pgShelf(db: PgDatabase, server: string, modes: OperatorModes): AccountShelf {
  const s = schemaIdentifier(server)
  const schemaOf = (id: string): string => {
    if (!ACCOUNT_ID_PATTERN.test(id)) throw new Error(`no account ${id}`)
    return schemaIdentifier(`${s}_a_${id}`)
  }
  const columns = 'id, created_at, control_token_hash, secrets'

  async function find(id: string): Promise<HostedAccount | undefined> {
    if (!ACCOUNT_ID_PATTERN.test(id)) return undefined
    const [row] = await db.query<AccountRow>(`SELECT ${columns} FROM ${s}.accounts WHERE id = $1`, [
      id,
    ])
    return row && account(row)
  }

  async function open(id: string) {
    const schema = schemaOf(id)
    // Created here on first use, or brought up to date by a newer release.
    await db.connect((client) => migrate(client, schema, db.where, 'hosted'))
    // Deleted meanwhile through another process (which may have dropped the schema already):
    // what was just made goes too.
    if (!(await find(id))) {
      await destroy(id)
      throw new StoreClosedError(`account ${id} was deleted`)
    }
    // Hosted accounts come and go: their statements are not kept prepared on every connection.
    return {
      store: createPgStore(db, schema, { prepared: false }),
      operator: await openPgOperator(db, schema, modes, { prepared: false }),
    }
  }

  async function remove(id: string): Promise<void> {
    await db.query(`DELETE FROM ${s}.accounts WHERE id = $1`, [id])
  }

  async function destroy(id: string): Promise<void> {
    await db.query(`DROP SCHEMA IF EXISTS ${schemaOf(id)} CASCADE`)
  }

  return {
    async list() {
      const rows = await db.query<AccountRow>(
        `SELECT ${columns} FROM ${s}.accounts ORDER BY created_at, id`,
      )
      return rows.map(account)
    },
    find,
    async add(hosted, max) {
      const added = await db.transact(async (client) => {
        await client.query(
          `SELECT pg_advisory_xact_lock(hashtext('service-playground:${s}:accounts'))`,
        )
        const { rows } = await client.query<{ n: number }>(
          `SELECT count(*)::integer AS n FROM ${s}.accounts`,
        )
        if (rows[0]!.n >= max) return false
        await client.query(`INSERT INTO ${s}.accounts (${columns}) VALUES ($1, $2, $3, $4)`, [
          hosted.id,
          hosted.createdAt,
          hosted.controlTokenHash,
          JSON.stringify(hosted.secrets),
        ])
        return true
      })
      if (!added) return undefined
      try {
        return await open(hosted.id)
      } catch (error) {
        await remove(hosted.id).catch(() => undefined)
        await destroy(hosted.id).catch(() => undefined)
        throw error
      }
    },
    open,
    remove,
    destroy,
  }
}

/**
 * Drops the schemas of accounts no row lists: deletes a crash cut short between `remove` and
 * `destroy`. Read in one statement, so a schema seen is never that of an account whose row was
 * not yet seen (a row is committed before its account's schema is made).
 */
export async function sweepPgShelf(db: PgDatabase, server: string): Promise<void> {
  const s = schemaIdentifier(server)
  const orphans = await db.query<{ id: string }>(
    `SELECT substr(nspname, $1) AS id FROM pg_namespace
     WHERE nspname LIKE $2 AND NOT EXISTS (
       SELECT 1 FROM ${s}.accounts WHERE id = substr(nspname, $1)
     )`,
    [`${s}_a_`.length + 1, `${s.replaceAll('_', '\\_')}\\_a\\_%`],
  )
  for (const { id } of orphans) {
    if (ACCOUNT_ID_PATTERN.test(id)) {
      await db.query(`DROP SCHEMA IF EXISTS ${schemaIdentifier(`${s}_a_${id}`)} CASCADE`)
    }
  }
}
