import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callTuples } from '../../testing/serve-process'
import { EXIT, main } from './commands'
import { serveTarget } from '../../conformance/targets'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'verify-'))

async function run(args: string[]) {
  const lines: string[] = []
  const code = await main(['verify', ...args], {
    root,
    out: (text) => lines.push(text),
    err: (text) => lines.push(text),
  })
  return { code, output: lines.join('\n') }
}

function contract(name: string, steps: unknown[]): string {
  const file = join(dir, `${name}.json`)
  writeFileSync(file, JSON.stringify({ description: name, cases: [{ name, steps }] }))
  return file
}

// What a client relies on in an account no one else wrote to: a key it never set is absent.
const absent = contract('absent', [
  { call: 'keyv.get', args: { key: 'precious' }, expect: { status: 200, result: null } },
])
// A contract that starts by moving the clock needs the control plane to run at all.
const later = contract('later', [
  { advance: 60 },
  { call: 'core.ping', expect: { status: 200, result: true } },
])

// `serve` in its own process, with a control token, hosting accounts.
let server: Awaited<ReturnType<typeof serveTarget>>
let secret: string

beforeAll(async () => {
  server = await serveTarget(root, { serviceName: 'service' })
  secret = ((await server.control!('secrets', {})) as { key: string }).key
}, 60_000)
afterAll(() => server?.close())

const target = () => [
  ...['--base-url', server.baseUrl, '--service-name', 'service'],
  ...['--junit', join(dir, 'results.xml')],
]
const precious = async () =>
  (await callTuples(server.baseUrl, secret, 'keyv.get', [['$$', 'key', 'precious']])).value
const accounts = async () =>
  (await fetch(`${server.baseUrl}/_accounts`, {
    headers: { authorization: `Bearer ${server.controlToken}` },
  }).then((response) => response.json())) as unknown[]

describe('verify with a control token', () => {
  it("runs each contract in an account it makes and deletes, leaving the server's own untouched", async () => {
    const set = [
      ['$$', 'key', 'precious'],
      ['$$', 'value', 'kept'],
    ]
    expect((await callTuples(server.baseUrl, secret, 'keyv.set', set)).status).toBe(200)
    const { code, output } = await run([
      absent,
      later,
      '--control-token',
      server.controlToken,
      ...target(),
    ])
    expect(output).toContain(
      `each contract in an account of its own on ${server.baseUrl}, deleted after it`,
    )
    expect(output).toMatch(/base-url: 2 passed, 0 failed, 0 skipped, 2 contracts/)
    expect(code).toBe(EXIT.passed)
    expect(await precious()).toBe('kept')
    expect(await accounts()).toEqual([])
  }, 60_000)

  it('resets the account at --base-url only when --reset-account says so, and says it', async () => {
    const set = [
      ['$$', 'key', 'precious'],
      ['$$', 'value', 'kept'],
    ]
    expect((await callTuples(server.baseUrl, secret, 'keyv.set', set)).status).toBe(200)
    const { code, output } = await run([
      absent,
      ...['--control-token', server.controlToken, '--reset-account', ...target()],
    ])
    expect(output).toContain(
      `the account at ${server.baseUrl} is reset before each contract (--reset-account)`,
    )
    expect(code).toBe(EXIT.passed)
    // The reset took the key, and the secret it was written with.
    secret = ((await server.control!('secrets', {})) as { key: string }).key
    expect(await precious()).toBeNull()
  }, 60_000)

  it('says what to give when the URL is not a server that makes accounts', async () => {
    const made = (await fetch(`${server.baseUrl}/_accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.controlToken}` },
    }).then((response) => response.json())) as {
      id: string
      baseUrl: string
      controlToken: string
    }
    try {
      const { code, output } = await run([
        absent,
        ...['--base-url', made.baseUrl, '--control-token', made.controlToken],
        ...['--service-name', 'service', '--junit', join(dir, 'results.xml')],
      ])
      expect(output).toMatch(
        /^error: verify runs each contract in an account of its own, and .*\/_accounts answered 40\d.*: give the URL and control token serve printed at start .* or --reset-account /m,
      )
      expect(code).toBe(EXIT.preflight)
    } finally {
      await fetch(`${server.baseUrl}/_accounts/${made.id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${server.controlToken}` },
      })
    }
  }, 60_000)

  it('refuses --reset-account without a control token, or on a target of its own', async () => {
    for (const args of [
      [absent, '--reset-account', `--secret=${secret}`, ...target()],
      [absent, '--reset-account', '--target', 'handle'],
    ]) {
      const { code, output } = await run(args)
      expect(output).toMatch(/^error: --reset-account goes with --base-url URL --control-token T/)
      expect(code).toBe(EXIT.usage)
    }
  })
})

describe('a run in which every contract was skipped', () => {
  it('exits 4 saying why and what to give, unless --allow-skipped', async () => {
    const args = [later, `--secret=${secret}`, ...target()]
    const { code, output } = await run(args)
    expect(output).toMatch(/base-url: 0 passed, 0 failed, 1 skipped, 1 contract/)
    expect(output).toContain(
      [
        'error: every contract was skipped (1), so nothing was verified:',
        `  ${later} › later: step 1 needs the account control plane, which this target does not offer`,
        'give --control-token T of a serve (or --target handle|msw|serve) for the steps that need the control plane, or --allow-skipped to accept a run that verifies nothing',
      ].join('\n'),
    )
    expect(code).toBe(EXIT.nothingVerified)
    expect((await run([...args, '--allow-skipped'])).code).toBe(EXIT.passed)
  }, 60_000)

  it('exits 0 when one contract ran and another was skipped', async () => {
    const { code, output } = await run([
      ...[absent, later, '--target', 'handle'],
      ...['--junit', join(dir, 'results.xml')],
    ])
    expect(output).toMatch(/handle: 2 passed/)
    expect(code).toBe(EXIT.passed)
    const mixed = await run([
      later,
      contract('ping', [{ call: 'core.ping', expect: { status: 200, result: true } }]),
      `--secret=${secret}`,
      ...target(),
    ])
    expect(mixed.output).toMatch(/base-url: 1 passed, 0 failed, 1 skipped, 2 contracts/)
    expect(mixed.code).toBe(EXIT.passed)
  }, 60_000)
})
