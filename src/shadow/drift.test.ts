/**
 * `drift` against `serve` as the real service: thirty runs of the notes example's contracts
 * against an unchanged upstream find nothing changed (in one process, against one serve); the
 * same upstream behind a small proxy that changes one field of its answers has exactly the
 * steps that read that field reported, each written beside the contract as a new one that
 * expects the changed answer; the summary and every output hold no secret or token; a wrong
 * command line is told what to do.
 */
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { CallStep } from '../conformance/cases'
import { main } from '../cli/conformance/commands'
import { loadContracts } from '../conformance/contract/load'
import { start, configure, type Running } from '../cli/serve/serve-cli'
import { runDrift } from './drift'
import { httpUpstream } from './upstream'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const SECRET = 'sk_Dr1ftQw8Ez4Rt6Yu2Io0Pa9S'
const CONTROL = 'drift-control-token-0123456789abcdef'
const scratch = mkdtempSync(join(tmpdir(), 'drift-'))
/** The notes example's contracts, copied: drift writes beside them. */
const contracts = join(scratch, 'contracts')
const notes = join(contracts, 'notes.json')
/** The field the proxy changes in every answer that holds it. */
const WAS = '"two litres"'
const IS = '"2 litres"'
mkdirSync(contracts)
copyFileSync(join(ROOT, 'examples/notes/contracts/notes.json'), notes)

let upstream: Running
let proxy: Server
let proxyUrl: string

beforeAll(async () => {
  const quiet = vi.spyOn(console, 'log').mockImplementation(() => undefined)
  try {
    upstream = await start(
      configure([
        '--port',
        '0',
        '--service-name',
        'proc',
        '--secret',
        SECRET,
        '--control-token',
        CONTROL,
      ]),
    )
  } finally {
    quiet.mockRestore()
  }
  proxyUrl = await changingProxy(upstream.url)
}, 60_000)

afterAll(async () => {
  proxy?.close()
  await upstream?.stop()
  rmSync(scratch, { recursive: true, force: true })
})

/** `serve` behind a proxy that answers `IS` wherever the upstream answered `WAS`. */
function changingProxy(target: string): Promise<string> {
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', async () => {
      const headers = Object.entries(req.headers).filter(
        ([name]) => !['host', 'connection', 'content-length', 'accept-encoding'].includes(name),
      ) as Array<[string, string]>
      const answer = await fetch(`${target}${req.url}`, {
        method: req.method!,
        headers,
        ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
      })
      const body = Buffer.from((await answer.text()).replaceAll(WAS, IS))
      const kept = [...answer.headers].filter(
        ([name]) =>
          !['connection', 'keep-alive', 'content-length', 'content-encoding'].includes(name),
      )
      res.writeHead(answer.status, kept.flat())
      res.end(body)
    })
  })
  return new Promise((resolve) =>
    proxy.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`),
    ),
  )
}

async function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const lines: string[] = []
  const code = await main(['drift', ...args], {
    out: (text) => lines.push(text),
    err: (text) => lines.push(text),
    env,
  })
  return { code, output: lines.join('\n') }
}

const callSteps = (file: string) =>
  loadContracts([file]).reduce(
    (sum, c) => sum + c.steps.filter((s) => 'call' in s || 'mint' in s).length,
    0,
  )

/** Nothing of a secret or token in a text: the two the tests gave, and any authorization's shape. */
function holdsNoSecret(text: string) {
  expect(text).not.toContain(SECRET)
  expect(text).not.toContain(CONTROL)
  expect(text).not.toMatch(/[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{43}/)
}

describe('drift against an unchanged upstream', () => {
  it('finds nothing changed over thirty runs', async () => {
    const contractsRead = loadContracts([contracts])
    const calls = callSteps(notes)
    for (let run = 1; run <= 30; run++) {
      const { results, shadow, changed, written } = await runDrift(contractsRead, {
        upstream: httpUpstream(upstream.url),
        serviceName: 'proc',
        rate: 100_000,
        controlToken: CONTROL,
        reportDir: join(scratch, `quiet-${run}`),
        log: () => undefined,
      })
      try {
        expect({ run, changed: changed.map((e) => e.label), written }).toEqual({
          run,
          changed: [],
          written: [],
        })
        expect(shadow.report.exchanges).toEqual([])
        expect(shadow.report.toJSON().totals.agreed).toBe(calls)
        expect(results.map((r) => r.status)).toEqual(contractsRead.map(() => 'passed'))
      } finally {
        await shadow.close()
      }
    }
    expect(readdirSync(contracts)).toEqual(['notes.json'])
  }, 300_000)

  it('exits 0 from the command line, writing no contract, its summary saying so', async () => {
    const summary = join(scratch, 'quiet-summary.md')
    const { code, output } = await run(
      [
        contracts,
        ...['--upstream', upstream.url, '--control-token', CONTROL, '--rate', '1000'],
        ...['--report', join(scratch, 'quiet-report')],
      ],
      { GITHUB_STEP_SUMMARY: summary },
    )
    expect({ code, output }).toMatchObject({ code: 0 })
    expect(output).toMatch(/: \d+ steps compared, 0 changed/)
    expect(readdirSync(contracts)).toEqual(['notes.json'])
    const text = readFileSync(summary, 'utf8')
    expect(text).toMatch(/^### ✅ drift: 0 steps changed/)
    holdsNoSecret(text + output)
  }, 60_000)
})

describe('drift against an upstream that changed one field', () => {
  const summary = join(scratch, 'changed-summary.md')
  const report = join(scratch, 'changed-report')
  /** The steps that read the changed field: what the contracts expect of them holds it. */
  const reading = loadContracts([notes]).flatMap((c) =>
    c.steps.flatMap((step, i) =>
      'call' in step && JSON.stringify((step as CallStep).expect).includes(WAS)
        ? [`${c.id} › step ${i + 1}`]
        : [],
    ),
  )
  it('reports exactly the steps that read the field, and nothing else', async () => {
    expect(reading.length).toBeGreaterThan(0)
    const { code, output } = await run([
      notes,
      ...['--upstream', proxyUrl, '--control-token', CONTROL, '--rate', '1000'],
      ...['--report', report, '--summary', summary],
    ])
    expect({ code, output }).toMatchObject({ code: 1 })
    const changed = [...output.matchAll(/^CHANGED (.*) › step (\d+) \(/gm)].map(
      (m) => `${m[1]} › step ${m[2]}`,
    )
    expect(changed).toEqual(reading)
    const differences = output
      .split('\n')
      .filter((line) => line.startsWith('  ') && !/recorded as/.test(line))
    expect(differences).toEqual(
      reading.map(() =>
        expect.stringMatching(/result.*2 litres.*two litres|result.*two litres.*2 litres/),
      ),
    )
    const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as {
      exchanges: Array<{ outcome: string; askedAgain: string }>
    }
    // Each was asked again, and answered the same: not noise.
    expect(json.exchanges.map((e) => [e.outcome, e.askedAgain])).toEqual(
      reading.map(() => ['differs', 'same answer']),
    )
    holdsNoSecret(output + readFileSync(join(report, 'report.json'), 'utf8'))
  }, 60_000)

  it('writes each beside the contract, never over a file, and not twice', async () => {
    const written = readdirSync(contracts)
      .filter((name) => name !== 'notes.json')
      .sort()
    expect(written).toEqual(reading.map((_, i) => `notes.drift-${i + 1}.json`))
    expect(readFileSync(notes, 'utf8')).toBe(
      readFileSync(join(ROOT, 'examples/notes/contracts/notes.json'), 'utf8'),
    )
    for (const name of written) {
      const text = readFileSync(join(contracts, name), 'utf8')
      holdsNoSecret(text)
      expect(text).toContain(IS)
      // Its `$schema` names the kit's schema from where it now stands.
      const { $schema } = JSON.parse(text) as { $schema: string }
      expect(readFileSync(join(contracts, $schema), 'utf8')).toBe(
        readFileSync(join(ROOT, 'schemas/cases.json'), 'utf8'),
      )
    }
    // Against the engine, the new contract fails at its last step until the engine answers so.
    const verified = await main(
      ['verify', join(contracts, written[0]!), '--junit', join(scratch, 'v.xml')],
      {
        out: () => undefined,
        err: () => undefined,
      },
    )
    expect(verified).toBe(1)
    // A second run finds the same change, already recorded: no file more.
    const again = await run([
      notes,
      ...['--upstream', proxyUrl, '--control-token', CONTROL, '--rate', '1000'],
      ...['--report', join(scratch, 'again'), '--summary', summary],
    ])
    expect(again.code).toBe(1)
    expect(again.output).toContain(`already recorded as ${join(contracts, 'notes.drift-1.json')}`)
    expect(readdirSync(contracts).sort()).toEqual([...written, 'notes.json'].sort())
  }, 60_000)

  it('appends a summary with each change as a diff and its new contract', () => {
    const text = readFileSync(summary, 'utf8')
    const sections = text.split(/^### /m).filter(Boolean)
    expect(sections).toHaveLength(2)
    expect(sections[0]).toMatch(new RegExp(`^❌ drift: ${reading.length} steps? changed`))
    expect(sections[0]).toContain('- result')
    expect(sections[0]).toContain(`+ result`)
    expect(sections[0]).toContain(IS)
    expect(sections[0]).toContain(`Saved as \`${join(contracts, 'notes.drift-1.json')}\``)
    holdsNoSecret(text)
  })
})

describe('drift, told wrong', () => {
  it.each([
    [[], /name the contracts to play/],
    [['missing.json', '--upstream', 'https://proc.run'], /missing\.json.*no such file/],
    [['x.json'], /drift needs --upstream URL/],
    [['x.json', '--upstream', 'not a url'], /--upstream must be the service's base URL/],
    [['x.json', '--upstream', 'ftp://proc.run'], /--upstream must be the service's base URL/],
    [['x.json', '--upstream', 'https://me:pw@proc.run'], /must not hold credentials/],
    [
      ['x.json', '--upstream', 'https://proc.run', '--rate', '0'],
      /--rate is the most calls a minute/,
    ],
    [
      ['x.json', '--upstream', 'https://proc.run', '--rate', '1.5'],
      /--rate is the most calls a minute/,
    ],
    [
      ['x.json', '--upstream', 'https://proc.run', '--rate', 'fast'],
      /--rate is the most calls a minute/,
    ],
    [['x.json', '--upstream', 'https://proc.run', '--colour'], /Unknown option '--colour'/],
  ])('%j: exits 2, saying what to do', async (args, message) => {
    const { code, output } = await run(args as string[])
    expect({ code, output }).toEqual({ code: 2, output: expect.stringMatching(message) })
  })

  it('without the secret or a control token: exits 2, naming where the secret goes', async () => {
    const { code, output } = await run([notes, '--upstream', 'https://proc.run'])
    expect({ code, output }).toEqual({
      code: 2,
      output: expect.stringMatching(
        /drift needs the upstream's secret \(--upstream-secret-file FILE/,
      ),
    })
  })

  it('with only a secret, contracts that need an empty account are skipped: exits 4, saying why', async () => {
    const { code, output } = await run(
      [notes, '--upstream', upstream.url, '--rate', '1000', '--report', join(scratch, 'skipped')],
      { SERVICE_PLAYGROUND_UPSTREAM_SECRET: SECRET },
    )
    expect({ code, output }).toEqual({
      code: 4,
      output: expect.stringMatching(/every contract was skipped \(3\), so nothing was compared/),
    })
    expect(output).toContain('needs an empty account, which only the control plane can give')
    holdsNoSecret(output)
  }, 60_000)

  it('a file that is no contract: exits 2, naming it', async () => {
    const bad = join(scratch, 'bad.json')
    writeFileSync(bad, '{"cases": 3}')
    const { code, output } = await run([
      bad,
      '--upstream',
      'https://proc.run',
      '--control-token',
      CONTROL,
    ])
    expect({ code, output }).toEqual({ code: 2, output: expect.stringContaining(bad) })
  })
})
