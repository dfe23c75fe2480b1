import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { churnAccounts, expectNoFailures, expectSurvivors } from '../../testing/account-churn'
import { crash, startServe, stopAll } from '../../testing/serve-process'

const CONTROL = 'control-token-durable-0123'
const dir = mkdtempSync(join(tmpdir(), 'serve-accounts-durable-'))

afterAll(async () => {
  await stopAll()
  rmSync(dir, { recursive: true, force: true })
})

describe('hosted accounts with --data (SQLite)', () => {
  it('keeps every account answered 201, with its data, across 50 creates and deletes at once and kill -9', async () => {
    const data = join(dir, 'churn.db')
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
    // Killed with creations, writes and deletes under way.
    expect(gone).toBeGreaterThanOrEqual(3)
    expect(kept).toBeGreaterThanOrEqual(20)
    // A second crash and start finds the same accounts: the list was not rebuilt from a guess.
    await crash(second)
    const third = await startServe(args)
    await expectSurvivors(third.url, CONTROL, records)
    // The files of creations and deletes the crash cut short are gone: one database a listed account.
    const listed = (await (
      await fetch(`${third.url}/_accounts`, { headers: { authorization: `Bearer ${CONTROL}` } })
    ).json()) as Array<{ id: string }>
    const files = readdirSync(`${data}.accounts`).filter((name) => name.endsWith('.db'))
    expect(files.sort()).toEqual(listed.map(({ id }) => `${id}.db`).sort())
  }, 120_000)
})
