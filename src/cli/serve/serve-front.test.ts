import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openAccount } from '../../client/open-account'
import { EXIT, main } from '../conformance/commands'
import { startFront, type Front } from '../../testing/front-proxy'
import { cliBundle } from '../../testing/cli-bundle'
import { run, shown } from '../../testing/run-command'
import { configure, start, type Running } from './serve-cli'

/**
 * `serve` behind a front (decision 095): `verify --base-url` and the kit reach each account
 * through the URL they were given, so a front that changes answers is seen; `--trust-proxy`
 * makes the links and account URLs name the origin the front says, and nothing else does.
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const NOTES = join(ROOT, 'examples/notes/contracts/notes.json')
const CONTROL = 'front-control-token-0001'
const dir = mkdtempSync(join(tmpdir(), 'front-'))
let plain: Running
let trusting: Running
const fronts: Front[] = []

beforeAll(async () => {
  const flags = ['--port', '0', '--control-token', CONTROL]
  plain = await start(configure(flags))
  trusting = await start(configure([...flags, '--trust-proxy']))
})
afterAll(async () => {
  await Promise.all(fronts.map((front) => front.close()))
  await Promise.all([plain?.stop(), trusting?.stop()])
  rmSync(dir, { recursive: true, force: true })
})

async function front(options: Omit<Parameters<typeof startFront>[0], 'upstream'>, to = plain) {
  const made = await startFront({ upstream: to.url, ...options })
  fronts.push(made)
  return made
}

async function verify(url: string) {
  const lines: string[] = []
  const code = await main(
    [
      'verify',
      NOTES,
      '--base-url',
      url,
      `--control-token=${CONTROL}`,
      '--service-name',
      'service',
      '--junit',
      join(dir, 'junit.xml'),
    ],
    { root: ROOT, out: (text) => lines.push(text), err: (text) => lines.push(text) },
  )
  return { code, output: lines.join('\n') }
}

/** The account paths a front passed on: `/a/<id>/…` below the account. */
const accountCalls = (seen: string[]) => seen.filter((path) => /^\/a\/[^/]+\/[a-z_]/.test(path))

describe('verify --base-url through a front', () => {
  it('reaches every account through the front that rewrites Host, and passes', async () => {
    const proxy = await front({})
    const { code, output } = await verify(proxy.url)
    expect(code, output).toBe(EXIT.passed)
    expect(output).toMatch(/PASSED|passed/)
    // Every call of every contract went through the front: keyv calls and control-plane steps.
    expect(accountCalls(proxy.seen).some((path) => /\/keyv\/set$/.test(path))).toBe(true)
    expect(accountCalls(proxy.seen).some((path) => /\/_account\/clock/.test(path))).toBe(true)
  }, 30_000)

  it('turns red through a front that changes answers, naming the steps', async () => {
    // `true` becomes `false` in every endpoint's answer: keyv.set and keyv.delete say false.
    const liar = await front({
      rewrite: (path, body) =>
        /^\/a\/[^/]+\/keyv\//.test(path) ? body.replace('["<<",true]', '["<<",false]') : undefined,
    })
    const { code, output } = await verify(liar.url)
    expect(code, output).toBe(EXIT.failed)
    expect(output).toMatch(/\d+ DIFFERS keyv\.set\n/)
    expect(output).toContain('true')
  }, 30_000)

  it('reaches every account through a TLS front, the command trusting its certificate', async () => {
    // A certificate for 127.0.0.1 made for this run (openssl, as Debian's ca-certificates has it).
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')]
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    )
    const tls = await front({
      tls: { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') },
    })
    const ran = await run(
      process.execPath,
      [
        await cliBundle(),
        'verify',
        NOTES,
        '--base-url',
        tls.url,
        `--control-token=${CONTROL}`,
        '--service-name',
        'service',
        '--junit',
        join(dir, 'tls.xml'),
      ],
      ROOT,
      { NODE_EXTRA_CA_CERTS: cert },
    )
    expect(ran.code, shown(ran)).toBe(EXIT.passed)
    expect(tls.url).toMatch(/^https:/)
    expect(accountCalls(tls.seen).some((path) => /\/keyv\/scan$/.test(path))).toBe(true)
  }, 60_000)
})

/** `POST /_accounts` through `node:http`, with headers of our own: its status and body. */
function openWith(
  server: Running,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(`${server.url}/_accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CONTROL}`, ...headers },
    })
    sent.on('response', (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    sent.on('error', reject)
    sent.end()
  })
}

const baseUrlOf = (body: string) => (JSON.parse(body) as { baseUrl: string }).baseUrl

describe('serve --trust-proxy', () => {
  it('without the flag, ignores a forged X-Forwarded-Host and Forwarded', async () => {
    const answer = await openWith(plain, {
      'x-forwarded-host': 'evil.test',
      'x-forwarded-proto': 'https',
      forwarded: 'host=evil.test;proto=https',
    })
    expect(answer.status).toBe(201)
    expect(baseUrlOf(answer.body)).toMatch(new RegExp(`^${plain.url}/a/[A-Za-z0-9_-]+$`))
  })

  it.each([
    [
      { forwarded: 'for=192.0.2.60;proto=https;host="front.test:8443", for=10.0.0.1;host=inner' },
      'https://front.test:8443',
    ],
    [{ forwarded: 'Host=Front.Test;Proto=HTTPS' }, 'https://front.test'],
    [
      { forwarded: 'for="[2001:db8::1]:4711";host="[2001:db8::2]:8080"' },
      'http://[2001:db8::2]:8080',
    ],
    [
      { 'x-forwarded-host': 'front.test, inner.test', 'x-forwarded-proto': 'https' },
      'https://front.test',
    ],
    [{ 'x-forwarded-proto': 'https' }, 'https://127.0.0.1'],
    // Forwarded wins over X-Forwarded-*, as RFC 7239 replaces them.
    [{ forwarded: 'host=one.test', 'x-forwarded-host': 'two.test' }, 'http://one.test'],
  ])('with it, names the origin the front gives: %j', async (headers, origin) => {
    const answer = await openWith(trusting, headers)
    expect(answer.status, answer.body).toBe(201)
    const expected =
      origin === 'https://127.0.0.1' ? `https://${new URL(trusting.url).host}` : origin
    expect(baseUrlOf(answer.body)).toMatch(new RegExp(`^${expected.replace(/[.[\]]/g, '\\$&')}/a/`))
  })

  it.each([
    [{ 'x-forwarded-host': 'evil.test/steal?x=' }, 'X-Forwarded-Host'],
    [{ 'x-forwarded-host': 'evil test' }, 'X-Forwarded-Host'],
    [{ 'x-forwarded-host': 'user@evil.test' }, 'X-Forwarded-Host'],
    [{ 'x-forwarded-host': 'evil.test:99999' }, 'X-Forwarded-Host'],
    [{ 'x-forwarded-proto': 'javascript' }, 'X-Forwarded-Proto'],
    [{ forwarded: 'host="evil.test/steal"' }, 'Forwarded'],
    [{ forwarded: 'host=a.test;host=b.test' }, 'Forwarded'],
    [{ forwarded: 'host="evil.test' }, 'Forwarded'],
    [{ forwarded: 'host=[::1]' }, 'Forwarded'],
    [{ forwarded: 'nonsense' }, 'Forwarded'],
  ])('refuses a header that names no origin, never echoing it: %j', async (headers, named) => {
    const answer = await openWith(trusting, headers)
    expect(answer.status).toBe(400)
    const { error } = JSON.parse(answer.body) as { error: { message: string } }
    expect(error.message).toContain(`the ${named} header`)
    expect(error.message).toContain('--trust-proxy')
    expect(answer.body).not.toMatch(/evil|steal|javascript|nonsense/)
  })

  it('names the front in deploy links too', async () => {
    const answer = await openWith(trusting, { forwarded: 'proto=https;host=front.test' })
    const account = JSON.parse(answer.body) as { id: string; secret: string }
    const deployed = await fetch(`${trusting.url}/a/${account.id}/service/deploy`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${account.secret}`,
        'content-type': 'application/vnd.service+json',
        accept: 'application/json',
        forwarded: 'proto=https;host=front.test',
      },
      body: JSON.stringify([
        ['$$', 'name', ['%%', 'greet']],
        ['$$', 'proc', ['{}', ['()', 'type.string.upcase']]],
      ]),
    })
    expect(deployed.status).toBe(200)
    expect(JSON.stringify(await deployed.json())).toContain(
      `front.test/a/${account.id}/lib/greet:dev`,
    )
  })
})

describe("the kit's accounts through a front", () => {
  it('are reached through the URL openAccount was given, not the one serve saw', async () => {
    const proxy = await front({})
    const account = await openAccount({ url: proxy.url, controlToken: CONTROL })
    try {
      expect(account.baseUrl).toBe(`${proxy.url}/a/${account.id}`)
      const pinged = await fetch(`${account.baseUrl}/core/ping`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.secret}` },
      })
      expect(await pinged.text()).toBe('true')
      await account.reset()
      expect(proxy.seen).toEqual(
        expect.arrayContaining([`/a/${account.id}/core/ping`, `/a/${account.id}/_account/reset`]),
      )
    } finally {
      await account.close()
    }
  })
})
