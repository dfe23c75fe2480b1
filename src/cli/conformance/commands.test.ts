import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { once } from 'node:events'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXIT, main } from './commands'
import { serveTarget } from '../../conformance/targets'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'conformance-'))

/** Runs the command in this process, keeping what it printed. */
async function run(args: string[]) {
  const lines: string[] = []
  const code = await main(args, {
    root,
    out: (text) => lines.push(text),
    err: (text) => lines.push(text),
  })
  return { code, output: lines.join('\n') }
}

// A `serve` of another name than the real service's, with a control token.
let acme: Awaited<ReturnType<typeof serveTarget>>

beforeAll(async () => {
  acme = await serveTarget(root, { serviceName: 'acme' })
}, 60_000)

/**
 * A live secret of `acme`'s account (a run with the control token resets the account). Passed as
 * `--secret=KEY`: a random key may start with `-`, which `--secret KEY` reads as another flag.
 */
const newSecret = async () => ((await acme.control!('secrets', {})) as { key: string }).key
afterAll(() => acme?.close())

describe('conformance against a base URL', () => {
  it('runs every case against a server of another name, through its control plane', async () => {
    const junit = join(dir, 'all.xml')
    const { code, output } = await run([
      ...['--base-url', acme.baseUrl, '--service-name', 'acme'],
      ...['--control-token', acme.controlToken, '--junit', junit],
    ])
    expect(output).toMatch(/\nbase-url: (\d+) passed, 0 failed, 0 skipped, \1 cases\n/)
    expect(code).toBe(EXIT.passed)
  }, 120_000)

  it('with a secret alone, skips what needs the control plane and says why', async () => {
    const { code, output } = await run([
      ...['--base-url', acme.baseUrl, '--service-name', 'acme', `--secret=${await newSecret()}`],
      ...['--filter', 'keyv.json', '--junit', join(dir, 'secret.xml')],
    ])
    expect(code).toBe(EXIT.passed)
    const skipped = Number(/, (\d+) skipped,/.exec(output)?.[1])
    expect(skipped).toBeGreaterThan(0)
    expect(output).toContain('needs an empty account, which only the control plane can give')
  }, 60_000)
})

describe('the pre-flight check', () => {
  const refused = async (args: string[], message: RegExp) => {
    const { code, output } = await run([...args, '--junit', join(dir, 'pre.xml')])
    expect(output).toMatch(message)
    expect(output.split('\n').filter((line) => line.startsWith('error:'))).toHaveLength(1)
    expect(code).toBe(EXIT.preflight)
  }

  it('says when nothing answers at the URL', async () => {
    const server = createServer()
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    const { port } = server.address() as { port: number }
    server.close()
    await once(server, 'close')
    await refused(
      ['--base-url', `http://127.0.0.1:${port}`, '--secret', 'whatever1'],
      /^error: nothing answers at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
    )
  })

  it('says when the secret is refused', async () => {
    await refused(
      ['--base-url', acme.baseUrl, '--service-name', 'acme', '--secret', 'not-the-secret'],
      /^error: the service at .* refused the secret \(401 "authorization is invalid"\): check --secret$/,
    )
  })

  it('says which service name the server answers to', async () => {
    await refused(
      ['--base-url', acme.baseUrl, `--secret=${await newSecret()}`],
      /^error: the service at .* calls itself `acme', not `proc': pass --service-name acme$/,
    )
  })

  it('says when the control token is refused', async () => {
    await refused(
      ['--base-url', acme.baseUrl, '--service-name', 'acme', '--control-token', 'x'.repeat(20)],
      /^error: the control plane at .* refused the control token \(401\): check --control-token$/,
    )
  })

  it('says when the base URL is not the service root', async () => {
    await refused(
      [
        '--base-url',
        `${acme.baseUrl}/nested/deeper`,
        '--service-name',
        'acme',
        `--secret=${await newSecret()}`,
      ],
      /^error: .*\/core\/ping answered 404: --base-url must be the service's root/,
    )
  })
})

describe('the command line', () => {
  it.each([
    [['--target', 'handle', '--secret', 's'], /^error: --secret goes with --target base-url/],
    [['--target', 'nowhere'], /^error: --target must be handle, msw, serve or base-url/],
    [['--base-url', 'https://x.test'], /^error: --target base-url needs --secret S/],
    [
      ['--base-url', 'not a url', '--secret', 's'],
      /^error: --base-url not a url is not an absolute URL/,
    ],
    [['--frobnicate'], /^error: Unknown option '--frobnicate'/],
    [['verify'], /^error: name the contracts to verify/],
    [['verify', join(dir, 'missing.json')], /^error: .*missing\.json: no such file$/],
  ])('refuses %j with a usage error', async (args, message) => {
    const { code, output } = await run(args)
    expect(output).toMatch(message)
    expect(code).toBe(EXIT.usage)
  })

  it('verifies a contract file and exits 1, with the difference, when it no longer holds', async () => {
    const contract = {
      description: 'a page reverses text',
      cases: [
        {
          name: 'reverses',
          steps: [
            {
              call: 'type.string.reverse',
              format: 'text',
              input: 'abc',
              expect: { status: 200, result: 'cba' },
            },
          ],
        },
      ],
    }
    const file = join(dir, 'reverses.json')
    writeFileSync(file, JSON.stringify(contract))
    const junit = join(dir, 'contract.xml')
    expect((await run(['verify', file, '--target', 'handle', '--junit', junit])).code).toBe(
      EXIT.passed,
    )
    contract.cases[0]!.steps[0]!.expect.result = 'CBA'
    writeFileSync(file, JSON.stringify(contract))
    const { code, output } = await run(['verify', file, '--target', 'handle', '--junit', junit])
    expect(code).toBe(EXIT.failed)
    expect(output).toContain('  1 DIFFERS type.string.reverse')
    expect(output).toContain('expected result "CBA", got "cba"')
    const xml = readFileSync(junit, 'utf8')
    expect(xml).toContain(
      '<failure message="step 1 (type.string.reverse): expected result &#34;CBA&#34;, got &#34;cba&#34;">',
    )
    expect(xml).toContain('POST https://conformance.proc.test/type/string/reverse')
    expect(xml).toContain('authorization: Bearer $secret')
    expect(xml).toContain('answered 200')
  })
})
