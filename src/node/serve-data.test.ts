import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { listening, post, serve, stopAll } from '../testing/serve-process'

const SECRET = 'persisted-secret-123'
const CONTROL = 'control-token-persisted-0123'
const dir = mkdtempSync(join(tmpdir(), 'serve-data-'))

afterAll(async () => {
  await stopAll()
  rmSync(dir, { recursive: true, force: true })
})

const vnd = { 'content-type': 'application/vnd.service+json', accept: 'application/json' }

async function start(...args: string[]) {
  const started = serve(['--port', '0', '--secret', SECRET, '--control-token', CONTROL, ...args])
  return { ...started, url: await listening(started) }
}

/** Ends the server the way a crash does: no chance to flush or close anything. */
async function crash(child: ReturnType<typeof serve>['child']) {
  const exited = once(child, 'exit')
  process.kill(-child.pid!, 'SIGKILL')
  await exited
}

async function call(url: string, token: string, name: string, body: unknown[]) {
  const response = await post(
    `${url}/${name.split('.').join('/')}`,
    token,
    JSON.stringify(body),
    vnd,
  )
  return { status: response.status, value: (await response.json()) as unknown }
}

describe('npm run serve --data', () => {
  it('keeps secrets, the signing key, procedures and keys across a crash', async () => {
    const data = join(dir, 'account.db')
    const first = await start('--data', data)
    const token = (
      await call(first.url, SECRET, 'auth.create', [['$$', 'abilities', ['keyv', 'lib']]])
    ).value as string
    expect(typeof token).toBe('string')
    expect(
      (
        await call(first.url, SECRET, 'keyv.set', [
          ['$$', 'key', 'k'],
          ['$$', 'value', { kept: true }],
        ])
      ).status,
    ).toBe(200)
    const proc = ['{}', ['()', 'type.string.reverse', ['>>', ['%%', 'kept']]]]
    expect(
      (
        await call(first.url, SECRET, 'service.create', [
          ['$$', 'name', 'keeper'],
          ['$$', 'proc', proc],
        ])
      ).status,
    ).toBe(200)
    await crash(first.child)

    const second = await start('--data', data)
    expect(await call(second.url, token, 'keyv.get', [['$$', 'key', 'k']])).toEqual({
      status: 200,
      value: { kept: true },
    })
    expect(await call(second.url, SECRET, 'lib.keeper', [])).toEqual({ status: 200, value: 'tpek' })
    const secrets = await fetch(`${second.url}/_account/secrets`, {
      headers: { authorization: `Bearer ${CONTROL}` },
    })
    expect(((await secrets.json()) as unknown[]).length).toBe(1)
    await crash(second.child)
  }, 60_000)

  it('loses no acknowledged write when killed during parallel writes', async () => {
    const data = join(dir, 'parallel.db')
    const first = await start('--data', data)
    const acknowledged: string[] = []
    const writes = Array.from({ length: 400 }, async (_, i) => {
      const key = `k${i}`
      try {
        const answer = await call(first.url, SECRET, 'keyv.set', [
          ['$$', 'key', key],
          ['$$', 'value', i],
        ])
        if (answer.status === 200) acknowledged.push(key)
      } catch {
        // The connection died with the server: not acknowledged.
      }
    })
    // Kill it once some writes are answered and others are still in flight.
    while (acknowledged.length < 50) await new Promise((resolve) => setTimeout(resolve, 5))
    await crash(first.child)
    await Promise.all(writes)
    expect(acknowledged.length).toBeGreaterThanOrEqual(50)

    const second = await start('--data', data)
    const scan = await call(second.url, SECRET, 'keyv.scan', [['$$', 'count', 1000]])
    const stored = new Set(scan.value as string[])
    expect(acknowledged.filter((key) => !stored.has(key))).toEqual([])
    await crash(second.child)
  }, 60_000)

  it('says when it keeps nothing, and exports on exit what --import reads back', async () => {
    const file = join(dir, 'export.json')
    const first = serve([
      '--port',
      '0',
      '--secret',
      SECRET,
      '--control-token',
      CONTROL,
      '--export-on-exit',
      file,
    ])
    let stdout = ''
    first.child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    const url = await listening(first)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(stdout).toContain('data: in memory (gone when serve stops; keep it with --data <file>)')
    expect(
      (
        await call(url, SECRET, 'keyv.set', [
          ['$$', 'key', 'k'],
          ['$$', 'value', 'exported'],
        ])
      ).status,
    ).toBe(200)
    const exited = once(first.child, 'exit')
    process.kill(-first.child.pid!, 'SIGTERM')
    await exited
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      format: 'service-playground/account',
    })

    const second = await start('--import', file)
    expect(await call(second.url, SECRET, 'keyv.get', [['$$', 'key', 'k']])).toEqual({
      status: 200,
      value: 'exported',
    })
    await crash(second.child)
  }, 60_000)
})
