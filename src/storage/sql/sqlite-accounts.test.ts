import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { newAccountId, type HostedAccount } from './account-shelf'
import { openSqliteShelf } from './sqlite-accounts'
import { openSqliteFile, openSqliteStore } from './sqlite-store'

const root = mkdtempSync(join(tmpdir(), 'sqlite-accounts-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let made = 0

const hosted = (id = newAccountId()): HostedAccount => ({
  id,
  createdAt: ++made,
  controlTokenHash: 'f'.repeat(64),
  secrets: [`secret-of-${id}`],
})

async function open(dir: string) {
  const file = await openSqliteFile(join(dir, 'server.db'))
  const shelf = await openSqliteShelf(file, join(dir, 'accounts'), openSqliteStore)
  return { file, shelf }
}

describe('the hosted accounts of a SQLite data file', () => {
  it('never pass their bound, however many are made at once', async () => {
    const dir = mkdtempSync(join(root, 'bound-'))
    const { file, shelf } = await open(dir)
    const added = await Promise.all(Array.from({ length: 12 }, () => shelf.add(hosted(), 5)))
    const kept = added.filter((entry) => entry !== undefined)
    expect(kept).toHaveLength(5)
    expect(await shelf.list()).toHaveLength(5)
    // The refused left no file behind.
    expect(readdirSync(join(dir, 'accounts')).filter((name) => name.endsWith('.db'))).toHaveLength(
      5,
    )
    for (const entry of kept) await entry!.store.close()
    await file.store.close()
  })

  it('are listed in the data file itself, so a removal is kept when its files are not yet gone', async () => {
    const dir = mkdtempSync(join(root, 'remove-'))
    const first = await open(dir)
    const [a, b] = [hosted(), hosted()]
    for (const account of [a, b]) await (await first.shelf.add(account, 10))!.store.close()
    await first.shelf.remove(a.id)
    expect(await first.shelf.find(a.id)).toBeUndefined()
    expect((await first.shelf.find(b.id))?.secrets).toEqual(b.secrets)
    await first.file.store.close()
    // Files of an account no row lists, as a crash between a creation's file and its row leaves.
    writeFileSync(join(dir, 'accounts', `${newAccountId()}.db`), '')
    writeFileSync(join(dir, 'accounts', `${a.id}.db-wal`), '')

    const second = await open(dir)
    expect((await second.shelf.list()).map(({ id }) => id)).toEqual([b.id])
    expect(readdirSync(join(dir, 'accounts')).filter((name) => !name.startsWith(b.id))).toEqual([])
    await second.file.store.close()
  })

  it('take over the list an older release kept in accounts.json, once', async () => {
    const dir = mkdtempSync(join(root, 'old-'))
    const old = hosted()
    mkdirSync(join(dir, 'accounts'))
    const store = await openSqliteStore(join(dir, 'accounts', `${old.id}.db`))
    await store.commit([{ op: 'setKey', bucket: 'b', key: 'k', value: 42 }])
    await store.close()
    writeFileSync(join(dir, 'accounts', 'accounts.json'), JSON.stringify([old]))

    const { file, shelf } = await open(dir)
    expect(await shelf.list()).toEqual([old])
    expect(existsSync(join(dir, 'accounts', 'accounts.json'))).toBe(false)
    const opened = await shelf.open(old.id)
    expect(await opened.store.getKey('b', 'k')).toBe(42)
    await opened.store.close()
    await file.store.close()
  })

  it('refuse to start over an old list that is not JSON, saying what to do', async () => {
    const dir = mkdtempSync(join(root, 'broken-'))
    mkdirSync(join(dir, 'accounts'))
    writeFileSync(join(dir, 'accounts', 'accounts.json'), '[{"id": ')
    const file = await openSqliteFile(join(dir, 'server.db'))
    await expect(openSqliteShelf(file, join(dir, 'accounts'), openSqliteStore)).rejects.toThrow(
      /accounts\.json, the list of hosted accounts an older serve kept, is not JSON .*move it away/,
    )
    await file.store.close()
  })
})
