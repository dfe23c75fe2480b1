/**
 * Against an unchanged upstream — a second `serve` over HTTP — shadow mode finds not one
 * difference: the proc-client example's suite, run as a process through `serve --upstream`,
 * passes as it does against the service itself, and the whole conformance suite through
 * `conformance --shadow` agrees on every step. No secret or control token in their output.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { main as commands } from '../cli/conformance/commands'
import { loadCases } from '../conformance/load-cases'
import { run, shown } from '../testing/run-command'
import { listening, ROOT, serve, stopAll } from '../testing/serve-process'

const SECRET = 'suite-secret-0123456789'
const CONTROL = 'examples-control-token-0123456789'
const scratch = mkdtempSync(join(tmpdir(), 'shadow-examples-'))
const secretFile = join(scratch, 'secret')
writeFileSync(secretFile, SECRET, { mode: 0o600 })
let upstreamUrl = ''

/** A port no one listens on now (`serve` is then started on it; another may take it first). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}

beforeAll(async () => {
  // On a port named up front, not 0: the links `core.deploy` answers with name the upstream's
  // host and port, as the mirror's do (the real service's name its host).
  for (let attempt = 1; upstreamUrl === ''; attempt++) {
    const upstream = serve([
      '--port',
      String(await freePort()),
      '--service-name',
      'proc',
      '--secret',
      SECRET,
      '--control-token',
      CONTROL,
    ])
    const url = await Promise.race([listening(upstream), upstream.ended.then(() => undefined)])
    if (url !== undefined) upstreamUrl = url
    else if (attempt === 3) throw new Error(`serve did not start: ${upstream.output.stderr}`)
  }
}, 60_000)

afterAll(async () => {
  await stopAll()
  rmSync(scratch, { recursive: true, force: true })
})

interface ReportJson {
  totals: Record<string, number>
  exchanges: unknown[]
  notCompared: Record<string, number>
}

it('runs the proc-client suite through the shadow with not one difference', async () => {
  const report = join(scratch, 'report')
  const shadow = serve([
    '--port',
    '0',
    '--upstream',
    upstreamUrl,
    '--upstream-secret-file',
    secretFile,
    '--service-name',
    'proc',
    '--shadow-report',
    report,
  ])
  const shadowUrl = await listening(shadow)

  const suite = await run(
    'npx',
    ['vitest', 'run', '--config', 'vitest.shadow.config.mjs'],
    join(ROOT, 'examples/proc-client'),
    {
      SECRET,
      PROC_BASE_URL: shadowUrl,
      CONTROL_TOKEN: CONTROL,
    },
  )
  expect(suite.code, shown(suite)).toBe(0)
  expect(suite.stdout).toMatch(/Tests +(\d+) passed \(\1\)/)

  shadow.child.kill('SIGTERM')
  await shadow.ended
  const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as ReportJson
  expect(json.exchanges).toEqual([])
  // Every call the suite made was compared and agreed: the 275 keys enumerating's beforeAll
  // writes among them. Only the kit's frames (checkpoints and restores on the upstream's control
  // plane, followed on the mirror) were passed on without a comparison.
  expect(json.totals).toMatchObject({ differs: 0, 'unknown-state': 0, noise: 0, follows: 0 })
  expect(json.totals.agreed).toBeGreaterThan(275)
  expect(json.totals.agreed! + json.totals.notCompared!).toBe(json.totals.exchanges)
  expect(Object.keys(json.notCompared)).toEqual([
    'requests to the upstream’s control plane (/_account)',
  ])
  expect(shadow.output.stdout).not.toContain(SECRET)
  expect(shadow.output.stdout).not.toContain(CONTROL)
}, 120_000)

it('plays the whole conformance suite through conformance --shadow with not one difference', async () => {
  const out: string[] = []
  const report = join(scratch, 'conformance')
  const code = await commands(
    [
      'conformance',
      '--shadow',
      upstreamUrl,
      '--control-token',
      CONTROL,
      '--service-name',
      'proc',
      '--shadow-report',
      report,
      '--junit',
      join(scratch, 'conformance.xml'),
    ],
    { root: ROOT, out: (text) => void out.push(text), err: (text) => void out.push(text) },
  )
  const text = out.join('\n')
  expect(code, text).toBe(0)
  const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as ReportJson
  expect(json.exchanges).toEqual([])
  // Every call and mint of every case was compared.
  const steps = loadCases().reduce(
    (sum, c) => sum + c.steps.filter((s) => 'call' in s || 'mint' in s).length,
    0,
  )
  expect([json.totals.agreed, json.totals.differs]).toEqual([steps, 0])
  expect(text).toContain(`${steps} agreed, 0 differ`)
  expect(text).not.toContain(CONTROL)
  expect(text).not.toContain(SECRET)
}, 120_000)
