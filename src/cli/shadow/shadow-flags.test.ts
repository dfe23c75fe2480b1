/**
 * Shadow mode's command lines: `serve --upstream` and `verify`/`conformance --shadow` say what
 * is wrong in words a person acts on (exit 2 for the command line, 1 when it cannot start, 3
 * when the upstream does not answer), and the upstream's secret comes from a file, the
 * environment or the flag, in that order.
 */
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { main as commands } from '../conformance/commands'
import { configure, FlagError } from '../serve/serve-cli'
import { runServe } from '../../server/spawn-serve'
import { cleanEnvironment } from '../../testing/run-command'
import { ROOT } from '../../testing/serve-process'
import { readUpstreamSecret, UPSTREAM_SECRET_VARIABLE } from '../serve/serve-shadow'

const scratch = mkdtempSync(join(tmpdir(), 'shadow-flags-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('serve --upstream', () => {
  it('reads shadow mode’s flags', () => {
    const config = configure([
      '--upstream',
      'https://proc.run',
      '--service-name',
      'proc',
      '--port',
      '0',
    ])
    expect(config.shadow).toEqual({
      upstream: 'https://proc.run',
      port: 0,
      host: '127.0.0.1',
      allowedHosts: [],
      serviceName: 'proc',
      reportDir: 'shadow-report',
      secret: {},
    })
    expect(
      configure([
        '--upstream',
        'http://127.0.0.1:8787/a/acc_1',
        '--upstream-secret-file',
        's',
        '--shadow-report',
        'r',
      ]).shadow,
    ).toMatchObject({
      upstream: 'http://127.0.0.1:8787/a/acc_1',
      reportDir: 'r',
      secret: { file: 's' },
    })
  })

  it.each([
    [
      ['--upstream', 'proc.run'],
      '--upstream must be the service\'s base URL over http or https, such as https://proc.run, not "proc.run"',
    ],
    [['--upstream', 'https://user:pass@proc.run'], '--upstream must not hold credentials'],
    [
      ['--upstream', 'https://proc.run', '--data', 'account.db', '--secret', 'my-secret-key'],
      "--data, --secret are about an account of serve's own",
    ],
    [
      ['--upstream', 'https://proc.run', '--host', '0.0.0.0'],
      '--upstream listens on loopback only',
    ],
    [['--upstream-secret-file', 'secret'], '--upstream-secret-file goes with --upstream URL'],
  ])('refuses %j, saying why', (args, message) => {
    expect(() => configure(args)).toThrow(FlagError)
    expect(() => configure(args)).toThrow(message)
  })

  it('takes the secret from its file first, then the environment, then the flag', async () => {
    const file = join(scratch, 'secret')
    writeFileSync(file, '  from-the-file-0123\n')
    const env = { [UPSTREAM_SECRET_VARIABLE]: 'from-the-environment' }
    expect(await readUpstreamSecret({ given: 'from-the-flag', file, env })).toBe(
      'from-the-file-0123',
    )
    expect(await readUpstreamSecret({ given: 'from-the-flag', env })).toBe('from-the-environment')
    expect(await readUpstreamSecret({ given: 'from-the-flag', env: {} })).toBe('from-the-flag')
    expect(await readUpstreamSecret({ env: {} })).toBeUndefined()
    writeFileSync(file, 'two words\n')
    await expect(readUpstreamSecret({ file, env })).rejects.toThrow(
      `--upstream-secret-file ${file}: it must hold the secret alone, on one line`,
    )
    await expect(readUpstreamSecret({ file: join(scratch, 'none'), env })).rejects.toThrow(
      'cannot read it',
    )
  })

  it('will not start without the upstream’s secret', async () => {
    const env = cleanEnvironment()
    delete env[UPSTREAM_SECRET_VARIABLE]
    const { child, output } = runServe(['--port', '0', '--upstream', 'http://127.0.0.1:9'], {
      command: ['npm', 'run', 'serve', '--'],
      cwd: ROOT,
      env,
    })
    const [code] = (await once(child, 'exit')) as [number | null]
    expect(code).toBe(1)
    expect(output.stderr).toContain(
      "error: --upstream needs the upstream's secret, to know it when your tests present it",
    )
  }, 30_000)
})

describe('verify and conformance --shadow', () => {
  const out: string[] = []
  const context = {
    out: (text: string) => void out.push(text),
    err: (text: string) => void out.push(text),
  }
  const contract = join(scratch, 'contract.json')
  writeFileSync(
    contract,
    JSON.stringify({
      description: 'd',
      cases: [{ name: 'n', steps: [{ call: 'core.ping', expect: { status: 200 } }] }],
    }),
  )

  it.each([
    [
      ['verify', contract, '--shadow', 'http://127.0.0.1:9', '--target', 'handle'],
      2,
      '--target does not go with --shadow',
    ],
    [['conformance', '--shadow-report', 'r'], 2, '--shadow-report goes with --shadow URL'],
    [['conformance', '--shadow', 'nowhere'], 2, '--shadow nowhere is not an absolute URL'],
    [['conformance', '--shadow', 'http://127.0.0.1:9'], 2, "--shadow needs the upstream's secret"],
    [
      ['verify', contract, '--shadow', 'http://127.0.0.1:9', '--secret', 'my-secret-key'],
      3,
      'nothing answers at http://127.0.0.1:9',
    ],
  ])('%j exits %i', async (args, code, message) => {
    out.length = 0
    const env = process.env[UPSTREAM_SECRET_VARIABLE]
    delete process.env[UPSTREAM_SECRET_VARIABLE]
    try {
      expect(await commands(args, context)).toBe(code)
    } finally {
      if (env !== undefined) process.env[UPSTREAM_SECRET_VARIABLE] = env
    }
    expect(out.join('\n')).toContain(message)
  })
})
