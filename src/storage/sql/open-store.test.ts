import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { cliBundle } from '../../testing/cli-bundle'
import { ROOT } from '../../testing/serve-process'
import { describeData, isPostgresUrl, openStore } from './open-store'

const dir = mkdtempSync(join(tmpdir(), 'open-store-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('openStore', () => {
  it('takes postgres: and postgresql: URLs for PostgreSQL, anything else for a file', () => {
    expect(isPostgresUrl('postgres://u@h:5432/db')).toBe(true)
    expect(isPostgresUrl('postgresql://h/db')).toBe(true)
    expect(isPostgresUrl('POSTGRES://h/db')).toBe(true)
    expect(isPostgresUrl('account.db')).toBe(false)
    expect(isPostgresUrl('./postgres://x')).toBe(false)
    expect(isPostgresUrl('/data/postgres.db')).toBe(false)
  })

  it('opens a path as a SQLite file', async () => {
    const path = join(dir, 'account.db')
    const store = await openStore(path)
    await store.commit([{ op: 'setKey', bucket: 'b', key: 'k', value: 1 }])
    expect(await store.getKey('b', 'k')).toBe(1)
    await store.close()
    expect(existsSync(path)).toBe(true)
  })

  it('describes where the data is kept, never with a password', () => {
    expect(describeData('postgres://app:s3cret@db.internal:5433/playground?sslmode=require')).toBe(
      'postgres://app@db.internal:5433/playground (PostgreSQL, shared by every serve over it; every write is committed before it is answered)',
    )
    expect(describeData('account.db')).toBe(
      `account.db (SQLite, held by this process, pid ${process.pid}; every write is on disk before it is answered)`,
    )
  })

  it('tells serve how to install pg when --data names PostgreSQL and pg is missing', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        './src/testing/without-pg.mjs',
        await cliBundle(),
        'serve',
        '--port',
        '0',
        '--data',
        'postgres://postgres@127.0.0.1:1/none',
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const [code] = (await once(child, 'exit')) as [number]
    expect(stderr).toContain(
      'error: --data postgres://postgres@127.0.0.1:1/none: PostgreSQL needs the optional dependency pg: add it to your project (npm i -D pg), or give a file to keep the account in SQLite',
    )
    // The command line is right; what it names cannot be used (decision 021's exit codes).
    expect(code).toBe(1)
  }, 30_000)
})
