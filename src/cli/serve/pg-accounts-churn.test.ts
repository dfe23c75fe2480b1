import { afterAll, describe, expect, inject, it } from 'vitest'
import { churnAccounts, expectNoFailures, expectSurvivors } from '../../testing/account-churn'
import { createDatabase } from '../../testing/postgres'
import { crash, startServe, stopAll } from '../../testing/serve-process'

const CONTROL = 'control-token-pg-churn-0123'

afterAll(stopAll)

describe('hosted accounts with --data postgres://…', () => {
  it('keeps every account answered 201, with its data, across 50 creates and deletes at once and kill -9', async () => {
    const data = await createDatabase(inject('postgres'))
    const args = ['--control-token', CONTROL, '--data', data, '--max-accounts', '200']
    const first = await startServe(args)
    const records = await churnAccounts({
      url: first.url,
      control: CONTROL,
      workers: 50,
      killAfter: 35,
      kill: () => crash(first),
    })
    expectNoFailures(records)
    expect(first.output.stderr).not.toMatch(/Error|error:/)

    const second = await startServe(args)
    const { kept, gone } = await expectSurvivors(second.url, CONTROL, records)
    expect(gone).toBeGreaterThanOrEqual(3)
    expect(kept).toBeGreaterThanOrEqual(20)
  }, 120_000)
})
