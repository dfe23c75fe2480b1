import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, it } from 'vitest'
import { expectHostedBounds } from '../../testing/hosted-bounds'
import { startServe, stopAll } from '../../testing/serve-process'

const CONTROL = 'control-token-bounds-0123'
const dir = mkdtempSync(join(tmpdir(), 'serve-bounds-'))

afterAll(async () => {
  await stopAll()
  rmSync(dir, { recursive: true, force: true })
})

describe("what a hosted account's own control token can make it grow", () => {
  it.each([
    ['in memory', []],
    ['with --data (SQLite)', ['--data', join(dir, 'account.db')]],
  ])(
    '%s: the journal within its bytes, secrets and fault rules within their caps',
    async (_, args) => {
      const { url } = await startServe(['--control-token', CONTROL, ...args])
      await expectHostedBounds(url, CONTROL)
    },
    120_000,
  )
})
