import pg from 'pg'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { createDatabase } from '../../testing/postgres'
import { openPgDatabase } from './pg-connection'

const url = await createDatabase(inject('postgres'))
const db = await openPgDatabase(url, { connections: 2 })
afterAll(() => db.end())

describe('one statement PostgreSQL cancels to break a deadlock', () => {
  it('is run again, and answers, instead of failing the request', async () => {
    await db.query('CREATE TABLE first (n int); CREATE TABLE second (n int)')
    await db.query('INSERT INTO first VALUES (1); INSERT INTO second VALUES (2)')
    // Another process (as a hosted account's schema is dropped) locks `second`, then `first`;
    // it waits ten seconds before looking for a deadlock, so the statement below, which looks
    // after one, is the one cancelled.
    const other = new pg.Client({ connectionString: url })
    await other.connect()
    try {
      await other.query("SET deadlock_timeout = '10s'")
      await other.query('BEGIN')
      await other.query('LOCK TABLE second IN ACCESS EXCLUSIVE MODE')
      const read = db.query<{ a: number; b: number }>(
        'SELECT first.n AS a, second.n AS b FROM first, second',
      )
      // The read holds `first` and waits for `second` before the other asks for `first`.
      await waitFor(async () => (await waiting(url)) > 0)
      const crossing = other.query('LOCK TABLE first IN ACCESS EXCLUSIVE MODE')
      await crossing
      await other.query('COMMIT')
      await expect(read).resolves.toEqual([{ a: 1, b: 2 }])
    } finally {
      await other.end()
    }
  }, 30_000)
})

/** Backends of this database waiting for a lock. */
async function waiting(url: string): Promise<number> {
  const probe = new pg.Client({ connectionString: url })
  await probe.connect()
  try {
    const { rows } = await probe.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    )
    return Number(rows[0]!.n)
  } finally {
    await probe.end()
  }
}

async function waitFor(ready: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    if (await ready()) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error('the statement never waited for its lock')
}
