import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { deleteInFlight, expectOnlyAnswered } from '../../testing/delete-in-flight'
import { startServe, stopAll } from '../../testing/serve-process'

const CONTROL = 'control-token-delete-0123'
const dir = mkdtempSync(join(tmpdir(), 'serve-accounts-delete-'))

afterAll(async () => {
  await stopAll()
  rmSync(dir, { recursive: true, force: true })
})

describe('deleting a hosted account with requests in flight', () => {
  it.each([
    ['in memory', []],
    ['with --data (SQLite)', ['--data', join(dir, 'account.db')]],
  ])(
    '%s: answers each request 200 or 404, never 500, and logs nothing',
    async (_, args) => {
      const server = await startServe(['--control-token', CONTROL, ...args])
      const statuses = await deleteInFlight([server.url], CONTROL)
      expectOnlyAnswered(statuses)
      expect(statuses).toContain(200)
      expect(server.output.stderr).toBe('')
    },
    120_000,
  )
})
