import {
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../engine'
import {
  callTuples as call,
  serve,
  crash,
  signalGroup,
  startServe,
  stopAll,
  type Started,
} from '../../testing/serve-process'
import { openSqliteStore } from '../../storage/sql/sqlite-store'

const SECRET = 'persisted-secret-123'
const CONTROL = 'control-token-persisted-0123'
const dir = mkdtempSync(join(tmpdir(), 'serve-data-'))

afterAll(async () => {
  await stopAll()
  rmSync(dir, { recursive: true, force: true })
})

const start = (...args: string[]) =>
  startServe(['--secret', SECRET, '--control-token', CONTROL, ...args])

/** Stops it as an operator does, and waits for the whole tree. */
async function stop(started: Started) {
  signalGroup(started, 'SIGTERM')
  return started.ended
}

const set = (url: string, key: string, value: unknown) =>
  call(url, SECRET, 'keyv.set', [
    ['$$', 'key', key],
    ['$$', 'value', value],
  ])
const get = (url: string, key: string) => call(url, SECRET, 'keyv.get', [['$$', 'key', key]])

/** `serve` with these flags fails to start: its exit code and what it said. */
async function refused(...args: string[]) {
  const started = serve(['--port', '0', ...args])
  const { code } = await started.ended
  return { code, stderr: started.output.stderr }
}

describe('npm run serve --data', () => {
  it('keeps secrets, the signing key, procedures and keys across a crash', async () => {
    const data = join(dir, 'account.db')
    const first = await start('--data', data)
    const token = (
      await call(first.url, SECRET, 'auth.create', [['$$', 'abilities', ['keyv', 'lib']]])
    ).value as string
    expect(typeof token).toBe('string')
    expect((await set(first.url, 'k', { kept: true })).status).toBe(200)
    const proc = ['{}', ['()', 'type.string.reverse', ['>>', ['%%', 'kept']]]]
    expect(
      (
        await call(first.url, SECRET, 'service.create', [
          ['$$', 'name', 'keeper'],
          ['$$', 'proc', proc],
        ])
      ).status,
    ).toBe(200)
    await crash(first)

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
    await crash(second)
  }, 60_000)

  it('loses no acknowledged write when killed during parallel writes', async () => {
    const data = join(dir, 'parallel.db')
    const first = await start('--data', data)
    const acknowledged: string[] = []
    let fiftieth: () => void = () => undefined
    const enough = new Promise<void>((resolve) => (fiftieth = resolve))
    const writes = Array.from({ length: 400 }, async (_, i) => {
      const key = `k${i}`
      try {
        const answer = await set(first.url, key, i)
        if (answer.status === 200 && acknowledged.push(key) === 50) fiftieth()
      } catch {
        // The connection died with the server: not acknowledged.
      }
    })
    // Kill it once some writes are answered and others are still in flight.
    await enough
    await crash(first)
    await Promise.all(writes)
    expect(acknowledged.length).toBeGreaterThanOrEqual(50)

    const second = await start('--data', data)
    const scan = await call(second.url, SECRET, 'keyv.scan', [['$$', 'count', 1000]])
    const stored = new Set(scan.value as string[])
    expect(acknowledged.filter((key) => !stored.has(key))).toEqual([])
    await crash(second)
  }, 60_000)
})

describe('npm run serve --data F --import seed.json', () => {
  it('imports into an empty data file only, says so, and keeps what was written since', async () => {
    const seedSource = await start()
    expect((await set(seedSource.url, 'seeded', 'from the seed')).status).toBe(200)
    const seed = join(dir, 'seed.json')
    const exported = await fetch(`${seedSource.url}/_account/export`, {
      headers: { authorization: `Bearer ${CONTROL}` },
    })
    writeFileSync(seed, await exported.text())
    await stop(seedSource)

    const data = join(dir, 'seeded.db')
    const first = await start('--data', data, '--import', seed)
    expect(await first.line(/^import: /)).toBe(`import: ${seed} (1 secret, 1 key, 0 procedures)`)
    expect(await get(first.url, 'seeded')).toEqual({ status: 200, value: 'from the seed' })
    expect((await set(first.url, 'seeded', 'changed since')).status).toBe(200)
    expect((await set(first.url, 'written', 'after the import')).status).toBe(200)
    await stop(first)

    const again = await start('--data', data, '--import', seed)
    expect(await again.line(/^import: /)).toBe(
      `import: ${seed} not applied: ${data} already holds an account, kept as it is (--import fills only an empty data file)`,
    )
    expect(await get(again.url, 'seeded')).toEqual({ status: 200, value: 'changed since' })
    expect(await get(again.url, 'written')).toEqual({ status: 200, value: 'after the import' })
    await crash(again)
  }, 60_000)

  it('refuses a broken or hostile import at start, naming the flag, the file and the place', async () => {
    const broken = join(dir, 'broken.json')
    writeFileSync(broken, '{"format": "service-playground/account",\n  "version": 1,,}')
    expect(await refused('--import', broken)).toEqual({
      code: 1,
      stderr: expect.stringContaining(
        `error: --import ${broken}: not valid JSON: unexpected ",}" at line 2, column 16`,
      ),
    })
    const hostile = join(dir, 'hostile.json')
    const secret = {
      id: '__proto__',
      key: 'a-key-long-enough',
      createdAt: 1,
      expiresAt: null,
      rolledTo: null,
    }
    writeFileSync(
      hostile,
      JSON.stringify({
        format: 'service-playground/account',
        version: 1,
        serviceName: 'service',
        exportedAt: 1,
        meta: {},
        secrets: [secret],
        keyv: [],
        procs: [],
      }),
    )
    expect(await refused('--import', hostile)).toEqual({
      code: 1,
      stderr: expect.stringContaining(
        `error: --import ${hostile}: invalid snapshot: secrets[0].id must be a secret id: sec_ and 1 to 64 of A-Z a-z 0-9 - _, not "__proto__"`,
      ),
    })
    const missing = join(dir, 'missing.json')
    expect((await refused('--import', missing)).stderr).toContain(
      `error: --import ${missing}: cannot read it (ENOENT`,
    )
  }, 60_000)
})

describe('one process per data file', () => {
  it('refuses a second serve on the same file, naming the file and the process holding it; a kill -9 leaves no lock behind', async () => {
    const data = join(dir, 'shared.db')
    const first = await start('--data', data)
    const pid = /pid (\d+);/.exec(await first.line(/^data: /))![1]
    const second = await refused('--data', data)
    expect(second.code).toBe(1)
    expect(second.stderr).toMatch(
      new RegExp(
        `error: --data ${data}: the file is in use by process ${pid} \\(serve, since [^)]+\\): two processes cannot share one data file; stop that one first, or give another file`,
      ),
    )
    // The first is untouched by the attempt.
    expect((await set(first.url, 'still', 'mine')).status).toBe(200)
    await crash(first)
    // Its lock file stays behind, naming a process that is gone: it does not block the next.
    expect(JSON.parse(readFileSync(`${data}.lock`, 'utf8'))).toMatchObject({ pid: Number(pid) })
    const third = await start('--data', data)
    expect(await get(third.url, 'still')).toEqual({ status: 200, value: 'mine' })
    await stop(third)
  }, 60_000)
})

/** Overwrites `length` bytes of `file` at `offset` with bytes no SQLite page holds. */
function scribble(file: string, offset: number, length: number) {
  const fd = openSync(file, 'r+')
  writeSync(fd, Buffer.alloc(length, 0xa5), 0, length, offset)
  closeSync(fd)
}

describe('a damaged data file', () => {
  it('is refused at start after a quick integrity check, naming the flag and the file', async () => {
    const data = join(dir, 'damaged.db')
    const store = await openSqliteStore(data)
    const engine = createEngine({ store })
    await engine.account.createSecret({ key: SECRET })
    await store.commit(
      Array.from(
        { length: 300 },
        (_, i) => ({ op: 'setKey', bucket: 'b', key: `k${i}`, value: 'x'.repeat(200) }) as const,
      ),
    )
    await store.close()
    scribble(data, 4096 * 3, 4096 * 4)
    const answer = await refused('--data', data)
    expect(answer.code).toBe(1)
    expect(answer.stderr).toMatch(
      new RegExp(
        `error: --data ${data}: the file is damaged \\(integrity check: .+\\): restore it from a backup`,
      ),
    )
    const notADatabase = join(dir, 'notes.txt')
    writeFileSync(notADatabase, 'these are my notes, not a database'.repeat(200))
    expect((await refused('--data', notADatabase)).stderr).toContain(
      `error: --data ${notADatabase}: the file is not a SQLite database (file is not a database)`,
    )
  }, 60_000)

  it('answers 503 naming the file once damaged while running, and says so once in its log', async () => {
    const data = join(dir, 'decaying.db')
    const store = await openSqliteStore(data)
    const engine = createEngine({ store })
    await engine.account.createSecret({ key: SECRET })
    // More than SQLite keeps in its page cache (2 MB), so reads must go to the file.
    await store.commit(
      Array.from(
        { length: 4000 },
        (_, i) => ({ op: 'setKey', bucket: 'b', key: `k${i}`, value: 'x'.repeat(1000) }) as const,
      ),
    )
    await store.close()
    const running = await start('--data', data)
    scribble(data, 4096, statSync(data).size - 4096)
    const answers = []
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${running.url}/_account/export`, {
        headers: { authorization: `Bearer ${CONTROL}` },
      })
      answers.push({ status: response.status, body: (await response.json()) as unknown })
    }
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([503]))
    expect(answers[0]!.body).toEqual({
      error: {
        message: expect.stringMatching(
          new RegExp(
            `^the data file ${data} is damaged \\(.+\\): nothing was written; stop serve and restore the file from a backup$`,
          ),
        ),
      },
    })
    const said = running.output.stderr.split('\n').filter((line) => line.includes('is damaged'))
    expect(said).toHaveLength(1)
    expect(said[0]).toMatch(/^error: the data file .* \(answering 503 until then\)$/)
    expect(running.output.stderr).not.toMatch(/engine fault|at .*\.ts:\d+/)
    await crash(running)
  }, 60_000)
})
