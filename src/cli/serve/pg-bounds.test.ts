import { afterAll, describe, inject, it } from 'vitest'
import { expectHostedBounds } from '../../testing/hosted-bounds'
import { createDatabase } from '../../testing/postgres'
import { startServe, stopAll } from '../../testing/serve-process'

const CONTROL = 'control-token-pg-bounds-0123'

afterAll(stopAll)

describe("what a hosted account's own control token can make it grow, over PostgreSQL", () => {
  it('the journal within its bytes, secrets and fault rules within their caps', async () => {
    const data = await createDatabase(inject('postgres'))
    const { url } = await startServe(['--control-token', CONTROL, '--data', data])
    await expectHostedBounds(url, CONTROL)
  }, 120_000)
})
