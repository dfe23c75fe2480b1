import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DataFileError, openSqliteStore } from './sqlite-store'
import { describeStoreContract } from '../../testing/store-contract/index'
import { fill } from '../../testing/store-contract/fixtures'

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

  it('is held by one store at a time, and names the process holding it', async () => {
    const path = join(dir, 'held.db')
    const first = await openSqliteStore(path)
    const second = openSqliteStore(path)
    await expect(second).rejects.toBeInstanceOf(DataFileError)
    await expect(second).rejects.toThrow(
      new RegExp(`^the file is in use by process ${process.pid} \\(serve, since `),
    )
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8'))).toMatchObject({ pid: process.pid })
    await first.close()
    expect(existsSync(`${path}.lock`)).toBe(false)
    const third = await openSqliteStore(path)
    await third.close()
  })

  it('opens past a lock file left by a process that is gone', async () => {
    const path = join(dir, 'stale.db')
    await (await openSqliteStore(path)).close()
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: 2 ** 22 + 1, host: 'x', since: 'then' }))
    const store = await openSqliteStore(path)
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8'))).toMatchObject({ pid: process.pid })
    await store.close()
  })

  it('refuses a SQLite file it did not write, saying so', async () => {
    const path = join(dir, 'foreign.db')
    const { default: Database } = await import('better-sqlite3')
    const foreign = new Database(path)
    foreign.exec('CREATE TABLE keyv (name TEXT)')
    foreign.close()
    await expect(openSqliteStore(path)).rejects.toThrow(
      /^the file is a SQLite database, but not one serve wrote \(.+\): give a new file name/,
    )
  })
})
