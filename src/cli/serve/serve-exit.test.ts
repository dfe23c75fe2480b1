import { once } from 'node:events'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { runServe } from '../../server/spawn-serve'
import { schemaError } from '../../testing/published-schemas'
import {
  callTuples,
  crash,
  listening,
  ROOT,
  serve,
  signalGroup,
  startServe,
  stopAll,
  type Started,
} from '../../testing/serve-process'

const SECRET = 'exported-secret-123'
const CONTROL = 'control-token-exported-0123'
const dir = mkdtempSync(join(tmpdir(), 'serve-exit-'))

afterAll(async () => {
  await stopAll()
  rmSync(dir, { recursive: true, force: true })
})

const start = (...args: string[]) =>
  startServe(['--secret', SECRET, '--control-token', CONTROL, ...args])

async function set(url: string, key: string, value: unknown) {
  const { status } = await callTuples(url, SECRET, 'keyv.set', [
    ['$$', 'key', key],
    ['$$', 'value', value],
  ])
  return status
}

/** Whether anything still listens at `url`: the connection is refused once the server is gone. */
async function stillListening(url: string): Promise<boolean> {
  const { port } = new URL(url)
  const socket = connect(Number(port), '127.0.0.1')
  const connected = await new Promise<boolean>((resolve) => {
    socket.once('connect', () => resolve(true))
    socket.once('error', () => resolve(false))
  })
  socket.destroy()
  return connected
}

function exportedKeys(file: string): unknown {
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { keyv: Array<{ key: string }> }
  return snapshot.keyv.map(({ key }) => key)
}

/** No temporary file is left beside the export. */
const leftovers = (folder: string) => readdirSync(folder).filter((name) => name.endsWith('.tmp'))

describe('npm run serve --export-on-exit', () => {
  it('exports when npm alone is signalled (npm run serve … & kill $!), and leaves no server listening', async () => {
    const file = join(dir, 'npm-only.json')
    const running = await start('--export-on-exit', file)
    expect(await running.line(/^data: /)).toBe(
      'data: in memory (gone when serve stops; keep it with --data <file>)',
    )
    expect(await running.line(/^export on exit: /)).toBe(
      `export on exit: ${file} (on SIGINT, SIGTERM or SIGHUP; written whole or not at all)`,
    )
    expect(await set(running.url, 'k', 'exported')).toBe(200)
    // What `kill $!` does after `npm run serve … &`: only npm gets the signal.
    running.child.kill('SIGTERM')
    // Every process holding the output (npm and the server) has ended.
    await running.ended
    expect(await stillListening(running.url)).toBe(false)
    expect(exportedKeys(file)).toEqual(['k'])
    expect(leftovers(dir)).toEqual([])
    // It holds the account's secrets: readable by its owner alone.
    expect(statSync(file).mode & 0o777).toBe(0o600)
    // It follows the published schema, and names it for an editor.
    const exported = JSON.parse(readFileSync(file, 'utf8')) as { $schema: string }
    expect(schemaError('account', exported)).toBeUndefined()
    expect(resolve(dirname(file), exported.$schema)).toBe(
      fileURLToPath(new URL('../../../schemas/account.json', import.meta.url)),
    )

    const again = await start('--import', file)
    expect(await callTuples(again.url, SECRET, 'keyv.get', [['$$', 'key', 'k']])).toEqual({
      status: 200,
      value: 'exported',
    })
    await crash(again)
  }, 60_000)

  it('stops when the process that started it ends without passing the signal on, as npx does (npx service-playground serve & kill $!)', async () => {
    const file = join(dir, 'launcher.json')
    // npx runs the command in a shell that waits for it; signalled, the shell dies and the
    // server is left, adopted by another process.
    const running = runServe(['--port', '0', '--secret', SECRET, '--export-on-exit', file], {
      command: ['sh', '-c', 'node scripts/serve.mjs "$@"; true', 'sh'],
      cwd: ROOT,
      env: { ...process.env, npm_command: 'exec' },
    })
    const url = await listening(running)
    expect(await set(url, 'k', 'kept')).toBe(200)
    running.child.kill('SIGTERM')
    const ended = await Promise.race([
      running.ended.then(() => 'ended'),
      new Promise((resolve) => setTimeout(resolve, 15_000, 'still running')),
    ])
    try {
      expect(ended).toBe('ended')
      expect(await stillListening(url)).toBe(false)
      expect(running.output.stdout).toMatch(/^its parent process ended: stopping/m)
      expect(exportedKeys(file)).toEqual(['k'])
    } finally {
      await running.stop('SIGKILL')
    }
  }, 60_000)

  it('started other than by npm, outlives the process that started it until it is signalled itself', async () => {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')),
    )
    const running = runServe(['--port', '0', '--secret', SECRET], {
      command: ['sh', '-c', 'node scripts/serve.mjs "$@"; true', 'sh'],
      cwd: ROOT,
      env,
    })
    try {
      const url = await listening(running)
      running.child.kill('SIGTERM')
      // Well past the moments at which a watched parent's end would have been seen.
      await new Promise((resolve) => setTimeout(resolve, 1_500))
      expect(await set(url, 'k', 'still here')).toBe(200)
      expect(running.output.stdout).not.toMatch(/parent process ended/)
    } finally {
      await running.stop('SIGKILL')
    }
  }, 60_000)

  it('finishes the export when the whole process group gets SIGINT, as Ctrl+C or docker stop sends', async () => {
    const file = join(dir, 'group.json')
    const running = await start('--export-on-exit', file)
    expect(await set(running.url, 'from-the-group', 1)).toBe(200)
    signalGroup(running, 'SIGINT')
    await running.ended
    expect(await stillListening(running.url)).toBe(false)
    expect(exportedKeys(file)).toEqual(['from-the-group'])
    expect(running.output.stdout).toContain(`exported the account to ${file}`)
  }, 60_000)

  it('stops within its grace period though a client never finishes its request, and a second signal does not cut the export short', async () => {
    const file = join(dir, 'slow.json')
    const running = await start('--export-on-exit', file)
    const { port } = new URL(running.url)
    const slow = connect(Number(port), '127.0.0.1')
    await once(slow, 'connect')
    // Half a request line and headers, then nothing more.
    slow.write('POST /core/ping HTTP/1.1\r\nhost: 127.0.0.1\r\n')
    // The server cuts it: a reset, then the close.
    slow.on('error', () => undefined)
    const cut = new Promise((resolve) => slow.once('close', resolve))
    signalGroup(running, 'SIGTERM')
    await running.line(/^SIGTERM: stopping/)
    // Another signal while it waits on the slow client (a second Ctrl+C, npm passing one on)
    // does not cut the export short.
    signalGroup(running, 'SIGINT')
    await running.ended
    await cut
    expect(running.output.stdout).toContain('SIGINT: already stopping')
    expect(exportedKeys(file)).toEqual([])
  }, 60_000)

  it('checks at start that it can write there, naming the flag and the file', async () => {
    const nowhere = join(dir, 'no-such-folder', 'backup.json')
    const missing = serve(['--port', '0', '--export-on-exit', nowhere])
    expect((await missing.ended).code).toBe(1)
    expect(missing.output.stderr).toContain(
      `error: --export-on-exit ${nowhere}: cannot write there (ENOENT`,
    )
    const folder = join(dir, 'a-folder')
    mkdirSync(folder)
    const onFolder = serve(['--port', '0', '--export-on-exit', folder])
    expect((await onFolder.ended).code).toBe(1)
    expect(onFolder.output.stderr).toContain(
      `error: --export-on-exit ${folder}: is a folder; give a file name`,
    )
  }, 60_000)

  it('refuses the --data file as its target, however it is spelled', async () => {
    const data = join(dir, 'account.db')
    const spelled = join(dir, 'a-folder', '..', 'account.db')
    const started: Started = serve(['--port', '0', '--data', data, '--export-on-exit', spelled])
    expect((await started.ended).code).toBe(2)
    expect(started.output.stderr).toContain(
      `error: --export-on-exit ${spelled} is the --data file: the export would overwrite the database; give another file`,
    )
    expect(existsSync(data)).toBe(false)
  }, 60_000)
})
