import { spawnSync } from 'node:child_process'
import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { callTuples, listening, serve, signalGroup, stopAll } from '../../testing/serve-process'

const SECRET = 'full-disk-secret-123'
const dir = mkdtempSync(join(tmpdir(), 'serve-disk-'))
const holders: number[] = []

afterAll(async () => {
  await stopAll()
  for (const pid of holders) process.kill(pid, 'SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

/**
 * A real, small, full-able disk: a 4 MiB tmpfs mounted on `dir` in a mount namespace of the
 * server's own, so nothing is mounted on this machine and nothing is left behind. As root
 * `unshare --mount` makes it; otherwise a user namespace does, where the kernel allows one.
 * A process outside the server's tree holds the namespace, so that the test can read the disk
 * (through `/proc/<pid>/root`) after the server has ended.
 */
function smallDisk(): string[] {
  const mountOnly = ['unshare', '--mount', '--propagation', 'private']
  const withUser = ['unshare', '--user', '--map-root-user', '--mount', '--propagation', 'private']
  const usable = [mountOnly, withUser].find(
    (command) => spawnSync(command[0]!, [...command.slice(1), 'true']).status === 0,
  )
  if (!usable) {
    throw new Error(
      'this test mounts a small tmpfs: run it as root, or where user namespaces are allowed',
    )
  }
  const script = [
    'mount -t tmpfs -o size=4m tmpfs "$0" || exit 97',
    'setsid sleep 3600 </dev/null >/dev/null 2>&1 &',
    'echo "namespace held by $!"',
    'exec "$@"',
  ].join('\n')
  return [...usable, 'sh', '-c', script, dir]
}

/** Writes into `file` until the disk refuses another byte. */
function fill(file: string): void {
  const fd = openSync(file, 'a')
  for (const size of [65536, 4096, 1]) {
    const chunk = Buffer.alloc(size)
    try {
      for (;;) writeSync(fd, chunk)
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC')
    }
  }
  closeSync(fd)
}

describe('npm run serve --data on a full disk', () => {
  it('answers 507 naming the file, says so once, keeps what it acknowledged, and takes writes again once there is room; an export that does not fit leaves the previous one whole', async () => {
    const data = join(dir, 'account.db')
    const backup = join(dir, 'backup.json')
    const running = serve(
      ['--port', '0', '--secret', SECRET, '--data', data, '--export-on-exit', backup],
      { wrap: smallDisk() },
    )
    const holder = Number(/(\d+)$/.exec(await running.line(/^namespace held by \d+$/))![1])
    holders.push(holder)
    const url = await listening(running)
    const control = (await running.line(/^control token: /)).slice('control token: '.length)
    const disk = `/proc/${holder}/root${dir}`
    const call = (name: string, body: unknown[]) => callTuples(url, SECRET, `keyv.${name}`, body)
    const set = (key: string, value: unknown) =>
      call('set', [
        ['$$', 'key', key],
        ['$$', 'value', value],
      ])

    expect((await set('before', 'x'.repeat(8000))).status).toBe(200)
    writeFileSync(join(disk, 'backup.json'), 'the previous backup')
    fill(join(disk, 'filler'))

    const refused = []
    for (let i = 0; i < 5; i++) refused.push(await set(`during${i}`, 'y'.repeat(20_000)))
    expect(refused).toEqual(
      Array(5).fill({
        status: 507,
        value: {
          error: {
            message: `the disk holding the data file ${data} is full: nothing was written; free space there and try again`,
          },
        },
      }),
    )
    expect(await call('get', [['$$', 'key', 'before']])).toEqual({
      status: 200,
      value: 'x'.repeat(8000),
    })
    // No account can be made either: said as plainly, and nothing of it left behind.
    const account = await fetch(`${url}/_accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${control}` },
    })
    expect([account.status, await account.json()]).toEqual([
      507,
      {
        error: {
          message: `the disk holding ${data}.accounts is full: no account was made; free space there and try again`,
        },
      },
    ])
    expect(readdirSync(join(disk, 'account.db.accounts'))).toEqual([])
    const told = running.output.stderr.split('\n').filter((line) => line.includes('is full'))
    expect(told).toEqual([
      `error: the disk holding the data file ${data} is full: nothing was written; free space there and try again (answering 507 until then)`,
    ])

    rmSync(join(disk, 'filler'))
    expect((await set('after', 1)).status).toBe(200)
    expect(await running.line(/takes writes again$/)).toBe(
      `error: the data file ${data} takes writes again`,
    )

    fill(join(disk, 'filler'))
    signalGroup(running, 'SIGTERM')
    expect((await running.ended).code).toBe(1)
    expect(running.output.stderr).toContain(
      `error: --export-on-exit ${backup}: the export failed (ENOSPC: no space left on device`,
    )
    expect(readFileSync(join(disk, 'backup.json'), 'utf8')).toBe('the previous backup')
    expect(readdirSync(disk).filter((name) => name.endsWith('.tmp'))).toEqual([])
  }, 60_000)
})
