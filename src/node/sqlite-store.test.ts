import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openSqliteStore } from './sqlite-store'
import { describeStoreContract } from '../testing/store-contract/index'
import { fill } from '../testing/store-contract/fixtures'

const dir = mkdtempSync(join(tmpdir(), 'sqlite-store-'))
let files = 0
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describeStoreContract('openSqliteStore', () => openSqliteStore(join(dir, `${++files}.db`)))

describe('openSqliteStore', () => {
  it('keeps everything across closing and reopening the file', async () => {
    const path = join(dir, 'reopen.db')
    const first = await openSqliteStore(path)
    await fill(first)
    const saved = await first.snapshot()
    await first.close()
    const second = await openSqliteStore(path)
    expect(await second.snapshot()).toStrictEqual(saved)
    await second.close()
  })
})
