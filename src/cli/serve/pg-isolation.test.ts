import { afterAll, describe, expect, inject, it } from 'vitest'
import { incrementAtOnce } from '../../testing/increments'
import { createDatabase } from '../../testing/postgres'
import { startServe, stopAll } from '../../testing/serve-process'

const SECRET = 'isolated-pg-secret-0123'

afterAll(stopAll)

describe("one request's reads and writes are isolated over PostgreSQL", () => {
  it('300 get → add → set at once through one serve end at 300', async () => {
    const data = await createDatabase(inject('postgres'))
    const { url } = await startServe(['--secret', SECRET, '--data', data])
    const { statuses, final } = await incrementAtOnce([url], SECRET, 300)
    expect(statuses.filter((status) => status !== 200)).toEqual([])
    expect(final).toBe(300)
  }, 60_000)

  it('300 get → add → set at once through two serve processes over one database end at 300', async () => {
    const data = await createDatabase(inject('postgres'))
    const args = ['--secret', SECRET, '--data', data]
    const [a, b] = await Promise.all([startServe(args), startServe(args)])
    const { statuses, final } = await incrementAtOnce([a.url, b.url], SECRET, 300)
    expect(statuses.filter((status) => status !== 200)).toEqual([])
    expect(final).toBe(300)
  }, 60_000)
})
