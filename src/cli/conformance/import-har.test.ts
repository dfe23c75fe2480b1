/**
 * `import-har` (decision 095): the notes example app (examples/notes), run in Chromium against
 * an account on `serve` with Playwright's `recordHar`, gives a HAR; imported, it is a contract
 * with no token in it that `verify` replays and passes. The same exchanges as Firefox writes
 * them (bodies in base64) give the same steps; hostile HARs are refused, naming what is wrong,
 * and nothing is written.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from '@playwright/test'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openAccount, type ServeAccount } from '../../client/open-account'
import { configure, start, type Running } from '../serve/serve-cli'
import { parseCaseFile } from '../../conformance/cases'
import { EXIT, main } from './commands'
import { TOKEN_SHAPE } from '../../conformance/contract/answer'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const NOTES = join(ROOT, 'examples/notes')
const CONTROL = 'har-control-token-0001'
const dir = mkdtempSync(join(tmpdir(), 'har-'))
const HAR = join(dir, 'notes.har')
let serve: Running
let account: ServeAccount
let app: Server
/** Every token the page was given, to be found nowhere in a contract. */
const given: string[] = []

async function command(...args: string[]) {
  const lines: string[] = []
  const code = await main(args, {
    root: ROOT,
    out: (text) => lines.push(text),
    err: (text) => lines.push(text),
  })
  return { code, output: lines.join('\n') }
}

/** The notes app's own origin: its page, its script, and POST /session minting the page's token. */
async function startApp(): Promise<string> {
  app = createServer((req, res) => {
    if (req.url === '/session' && req.method === 'POST') {
      void fetch(`${account.baseUrl}/auth/create`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${account.secret}`,
          'content-type': 'application/json',
          accept: 'text/plain',
        },
        body: JSON.stringify({ abilities: ['keyv?bucket=notes-alice'], ttl: 3600 }),
      })
        .then((answer) => answer.text())
        .then((token) => {
          given.push(token)
          res.writeHead(200, { 'content-type': 'application/json' })
          res.end(JSON.stringify({ baseUrl: account.baseUrl, bucket: 'notes-alice', token }))
        })
      return
    }
    const file = { '/': 'index.html', '/notes.js': 'notes.js' }[req.url ?? '']
    if (!file) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': file.endsWith('.js') ? 'text/javascript' : 'text/html' })
    res.end(readFileSync(join(NOTES, file)))
  })
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(app.address() as AddressInfo).port}`
}

beforeAll(async () => {
  serve = await start(configure(['--port', '0', '--control-token', CONTROL]))
  account = await openAccount({ url: serve.url, controlToken: CONTROL })
  const origin = await startApp()
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  })
  try {
    const context = await browser.newContext({ recordHar: { path: HAR, content: 'embed' } })
    const page = await context.newPage()
    await page.goto(`${origin}/`)
    const status = page.getByRole('status')
    await status.filter({ hasText: '0 notes' }).waitFor()
    for (const [title, count] of [
      ['Milk', '1 note'],
      ['Eggs', '2 notes'],
      ['Bread', '3 notes'],
    ]) {
      await page.getByLabel('Title').fill(title!)
      await page.getByRole('button', { name: 'Add' }).click()
      await status.filter({ hasText: new RegExp(`^${count!}$`) }).waitFor()
    }
    await page.getByRole('button', { name: 'Delete Eggs' }).click()
    await status.filter({ hasText: /^2 notes$/ }).waitFor()
    await context.close()
  } finally {
    await browser.close()
  }
}, 90_000)

afterAll(async () => {
  await account?.close()
  await serve?.stop()
  await new Promise((resolve) => app?.close(resolve))
  rmSync(dir, { recursive: true, force: true })
})

/** Every string in a contract's text. */
const stringsOf = (text: string) => [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map(([, s]) => s!)

describe('import-har on a HAR Chromium recorded of the notes app', () => {
  const contract = join(dir, 'notes.contract.json')

  it('writes a contract with tokens as roles, other hosts counted, nothing secret', async () => {
    const { code, output } = await command('import-har', HAR, '--out', contract)
    expect(code, output).toBe(0)
    expect(output).toContain(`base URL: ${account.baseUrl} (service name service)`)
    // The app's page, script and session went to its own origin: counted, not imported.
    expect(output).toMatch(/\d+ entries to other hosts ignored \(http:\/\/127\.0\.0\.1:\d+: \d+\)/)
    const text = readFileSync(contract, 'utf8')
    for (const secret of [account.secret, account.controlToken, ...given]) {
      expect(text).not.toContain(secret)
    }
    expect(stringsOf(text).filter((s) => TOKEN_SHAPE.test(s))).toEqual([])
    expect(stringsOf(text).filter((s) => /^[A-Za-z0-9_-]{24,}$/.test(s))).toEqual([])
    const [imported] = parseCaseFile(contract, text)
    // The page's token, made before the HAR saw it, is made again from the secret it came from.
    expect(imported!.steps[0]).toEqual({
      mint: 'auth1',
      from: 'secret',
      abilities: ['keyv?bucket=notes-alice'],
      ttl: 3600,
    })
    const calls = imported!.steps.flatMap((s) => ('call' in s ? [s.call] : []))
    expect(calls).toEqual(
      expect.arrayContaining(['keyv.scan', 'keyv.set', 'keyv.get', 'keyv.delete']),
    )
    expect(new Set(imported!.steps.flatMap((s) => ('token' in s ? [s.token] : [])))).toEqual(
      new Set(['$auth1']),
    )
  })

  it('is verified by verify, each step passing in an account of its own', async () => {
    const { code, output } = await command(
      'verify',
      contract,
      '--base-url',
      serve.url,
      `--control-token=${CONTROL}`,
      '--service-name',
      'service',
      '--junit',
      join(dir, 'junit.xml'),
    )
    expect(code, output).toBe(EXIT.passed)
  }, 60_000)

  it('reads the same exchanges as Firefox writes them, bodies in base64, to the same steps', async () => {
    const har = JSON.parse(readFileSync(HAR, 'utf8')) as {
      log: { creator: unknown; entries: Array<{ response: { content: Record<string, unknown> } }> }
    }
    har.log.creator = { name: 'Firefox', version: '140.0' }
    for (const { response } of har.log.entries) {
      const { text } = response.content
      if (typeof text === 'string' && response.content.encoding === undefined) {
        response.content.text = Buffer.from(text).toString('base64')
        response.content.encoding = 'base64'
      }
    }
    const firefox = join(dir, 'firefox.har')
    writeFileSync(firefox, JSON.stringify(har))
    const out = join(dir, 'firefox.contract.json')
    const { code, output } = await command(
      'import-har',
      firefox,
      '--out',
      out,
      '--name',
      'notes.har',
    )
    expect(code, output).toBe(0)
    const steps = (file: string) => parseCaseFile(file, readFileSync(file, 'utf8'))[0]!.steps
    expect(steps(out)).toEqual(steps(contract))
  })
})

describe('import-har on a hostile HAR', () => {
  const cases: Array<[string, () => string, RegExp]> = [
    [
      'cut short',
      () => readFileSync(HAR, 'utf8').slice(0, 5000),
      /is not JSON \(.*\): was the HAR cut short while it was saved\?/,
    ],
    [
      'of another version',
      () => JSON.stringify({ log: { version: '2.0', entries: [] } }),
      /\/log\/version is "2\.0"; import-har reads HAR 1\.2/,
    ],
    [
      'of another shape',
      () => JSON.stringify({ log: { version: '1.2', entries: [{ request: {} }] } }),
      /\/log\/entries\/0 must have required property 'startedDateTime': not a HAR as browsers export it/,
    ],
    ['not a HAR at all', () => '[1, 2, 3]', /\(the file\) must be object: not a HAR/],
    [
      'with a base64 body that does not decode',
      () => {
        const har = JSON.parse(readFileSync(HAR, 'utf8')) as {
          log: {
            entries: Array<{
              request: { url: string }
              response: { content: Record<string, unknown> }
            }>
          }
        }
        const service = har.log.entries.filter((e) => e.request.url.startsWith(account.baseUrl))
        service[1]!.response.content.text = '%% not base64 %%'
        service[1]!.response.content.encoding = 'base64'
        return JSON.stringify(har)
      },
      /entry \d+ \(POST http:\/\/127\.0\.0\.1:\d+\/a\/[^)]+\): its response content is marked base64 but does not decode/,
    ],
  ]

  it.each(cases)(
    'refuses one %s, naming what is wrong, writing nothing',
    async (_, make, message) => {
      const file = join(dir, 'hostile.har')
      const out = join(dir, 'hostile.contract.json')
      writeFileSync(file, make())
      const { code, output } = await command('import-har', file, '--out', out)
      expect(code, output).toBe(2)
      expect(output).toMatch(message)
      expect(output).toMatch(/; nothing written$/)
      expect(existsSync(out)).toBe(false)
    },
  )

  it('refuses one too large to read before reading it', async () => {
    const file = join(dir, 'huge.har')
    writeFileSync(file, '')
    // A sparse file: its size is read, never its bytes.
    truncateSync(file, 65 * 1024 * 1024)
    const { code, output } = await command('import-har', file, '--out', join(dir, 'huge.json'))
    expect(code, output).toBe(2)
    expect(output).toMatch(/huge\.har is 65\.0 MiB; import-har reads at most 64 MiB/)
    expect(existsSync(join(dir, 'huge.json'))).toBe(false)
  })

  it('exits 1 for a HAR with no exchange with the service, writing nothing', async () => {
    const har = JSON.parse(readFileSync(HAR, 'utf8')) as {
      log: { entries: Array<{ request: { url: string } }> }
    }
    har.log.entries = har.log.entries.filter((e) => !e.request.url.startsWith(account.baseUrl))
    const file = join(dir, 'app-only.har')
    writeFileSync(file, JSON.stringify(har))
    const out = join(dir, 'app-only.json')
    const { code, output } = await command(
      'import-har',
      file,
      '--out',
      out,
      '--base-url',
      account.baseUrl,
    )
    expect(code, output).toBe(1)
    expect(output).toMatch(/nothing to record/)
    expect(existsSync(out)).toBe(false)
  })
})
