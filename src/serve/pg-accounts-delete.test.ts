import { afterAll, describe, expect, inject, it } from 'vitest'
import { deleteInFlight, expectOnlyAnswered } from '../testing/delete-in-flight'
import { createDatabase } from '../testing/postgres'
import { startServe, stopAll } from '../testing/serve-process'

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
})
