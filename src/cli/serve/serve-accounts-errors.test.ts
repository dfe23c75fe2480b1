import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startServe, stopAll } from '../../testing/serve-process'

const CONTROL = 'control-token-accounts-errors-0123'
const dir = mkdtempSync(join(tmpdir(), 'serve-accounts-errors-'))

afterAll(async () => {
  await stopAll()
  rmSync(dir, { recursive: true, force: true })
})

const create = (url: string) =>
  fetch(`${url}/_accounts`, { method: 'POST', headers: { authorization: `Bearer ${CONTROL}` } })

describe('POST /_accounts when the account cannot be made (SQLite)', () => {
  it('answers a 503 in the JSON error format naming the folder, and the server goes on', async () => {
    const data = join(dir, 'account.db')
    const server = await startServe(['--control-token', CONTROL, '--data', data])
    // Where the accounts' files go is a file, not a folder.
    rmSync(`${data}.accounts`, { recursive: true, force: true })
    writeFileSync(`${data}.accounts`, 'not a folder')
    const refused = await create(server.url)
    expect(refused.status).toBe(503)
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/)
    const { error } = (await refused.json()) as { error: { message: string } }
    expect(error.message).toContain(`the account's file cannot be made in ${data}.accounts`)
    expect(error.message).toContain('check the folder and its disk')
    // Nothing was listed; once the folder can be made, accounts are made again.
    const listed = await fetch(`${server.url}/_accounts`, {
      headers: { authorization: `Bearer ${CONTROL}` },
    })
    expect(await listed.json()).toEqual([])
    rmSync(`${data}.accounts`)
    expect((await create(server.url)).status).toBe(201)
    expect(server.output.stderr).toBe('')
  }, 60_000)
})
