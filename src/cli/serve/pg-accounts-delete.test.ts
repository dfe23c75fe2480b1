import pg from 'pg'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { deleteInFlight, expectOnlyAnswered } from '../../testing/delete-in-flight'
import { createDatabase } from '../../testing/postgres'
import { callTuples, crash, startServe, stopAll } from '../../testing/serve-process'

const CONTROL = 'control-token-pg-delete-0123'

afterAll(stopAll)

describe('deleting a hosted account with requests in flight, over PostgreSQL', () => {
  it('answers each request 200 or 404, never 500, through both processes sharing it', async () => {
    const data = await createDatabase(inject('postgres'))
    const args = ['--control-token', CONTROL, '--data', data]
    const [a, b] = await Promise.all([startServe(args), startServe(args)])
    const statuses = await deleteInFlight([a.url, b.url], CONTROL)
    expectOnlyAnswered(statuses)
    expect(statuses).toContain(200)
    expect(a.output.stderr + b.output.stderr).toBe('')
  }, 120_000)

  it('drops at the next start the data of an account whose row went and whose schema a crash left', async () => {
    const data = await createDatabase(inject('postgres'))
    const args = ['--control-token', CONTROL, '--data', data]
    const first = await startServe(args)
    const made = await fetch(`${first.url}/_accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CONTROL}` },
    })
    const { id, baseUrl, secret } = (await made.json()) as Record<string, string>
    const set = await callTuples(baseUrl!, secret!, 'keyv.set', [
      ['$$', 'key', 'k'],
      ['$$', 'value', 1],
    ])
    expect(set.status).toBe(200)
    await crash(first)
    // A delete cut short between its two steps: the row is gone, the schema is not.
    const client = new pg.Client({ connectionString: data })
    await client.connect()
    try {
      const schemas = async () =>
        (
          await client.query<{ nspname: string }>(
            'SELECT nspname FROM pg_namespace WHERE nspname = $1',
            [`service_playground_a_${id}`],
          )
        ).rows.length
      expect(await schemas()).toBe(1)
      await client.query('DELETE FROM service_playground.accounts WHERE id = $1', [id])
      const second = await startServe(args)
      expect(await schemas()).toBe(0)
      expect(
        (await callTuples(baseUrl!.replace(first.url, second.url), secret!, 'core.ping', []))
          .status,
      ).toBe(404)
    } finally {
      await client.end()
    }
  }, 120_000)
})
