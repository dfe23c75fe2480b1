import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { incrementAtOnce } from '../../testing/increments'
import { startServe, stopAll } from '../../testing/serve-process'

const SECRET = 'isolated-secret-0123'
const dir = mkdtempSync(join(tmpdir(), 'serve-isolation-'))

afterAll(async () => {
  await stopAll()
  rmSync(dir, { recursive: true, force: true })
})

describe("one request's reads and writes are isolated from every other's", () => {
  it.each([
    ['in memory', []],
    ['with --data (SQLite)', ['--data', join(dir, 'account.db')]],
  ])(
    '%s: 300 get → add → set at once end at 300',
    async (_, args) => {
      const { url } = await startServe(['--secret', SECRET, ...args])
      const { statuses, final } = await incrementAtOnce([url], SECRET, 300)
      expect(statuses.filter((status) => status !== 200)).toEqual([])
      expect(final).toBe(300)
    },
    60_000,
  )
})
