/**
 * Job summaries from every producer — `verify`, `conformance`, `coverage`, `tokens`,
 * `verify --shadow` with its shadow report, and a chaos run of the kit's — appended to one file as a CI step's
 * `GITHUB_STEP_SUMMARY` is (or named by `--summary`), against one `serve` in this process: each
 * section says what a reviewer needs (a differing step as a diff, the coverage table and what
 * is below the gate), and the file holds none of the secrets and tokens the runs used.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { configure, start, type Running } from '../serve/serve-cli'
import { main } from './commands'
import { tokensCommand } from './tokens-command'
import { appendSummary, fenced } from './summary'
import { scenarios } from '../../../examples/chaos-client/scenarios'
import { startService } from '../../node'
import { contractSource, chaosFrameOver } from '../../kit/in-process-handle'
import { readChaosOptions } from '../../kit/chaos/options'
import { chaosReporter } from '../../kit/chaos/reporter'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const NOTES = join(ROOT, 'examples/notes/contracts/notes.json')
const SECRET = 'sk_Su5mMa7rYq2Wx9Ce4Vb1Nm3K'
const CONTROL = 'summary-control-token-0123456789'
const dir = mkdtempSync(join(tmpdir(), 'summary-'))
const summary = join(dir, 'step-summary.md')

/** A contract whose last step expects what the service does not answer, with a token minted. */
const wrong = join(dir, 'wrong.json')
writeFileSync(
  wrong,
  JSON.stringify({
    description: 'expects a note that is not there',
    cases: [
      {
        name: 'reads a note',
        fresh: true,
        steps: [
          {
            call: 'auth.create',
            args: { abilities: ['keyv?bucket=notes'], ttl: 600 },
            expect: { status: 200, resultType: 'string' },
            bind: { as: 'auth1', from: 'result' },
          },
          {
            call: 'keyv.get',
            token: '$auth1',
            args: { bucket: 'notes', key: 'milk' },
            expect: { status: 200, result: { title: 'Milk' } },
          },
        ],
      },
    ],
  }),
)

let serve: Running
const outputs: string[] = []

async function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const lines: string[] = []
  const code = await main(args, {
    root: ROOT,
    out: (text) => lines.push(text),
    err: (text) => lines.push(text),
    env,
  })
  outputs.push(lines.join('\n'))
  return { code, output: lines.join('\n') }
}

/** The sections of the summary file, by their heading. */
const sections = () =>
  readFileSync(summary, 'utf8')
    .split(/^(?=### )/m)
    .filter((s) => s.startsWith('### '))

beforeAll(async () => {
  const quiet = vi.spyOn(console, 'log').mockImplementation(() => undefined)
  try {
    serve = await start(
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
  const junit = ['--junit', join(dir, 'results.xml')]
  const at = ['--base-url', serve.url]
  await run(['verify', wrong, ...at, '--control-token', CONTROL, ...junit, '--summary', summary])
  await run(['conformance', ...at, `--secret=${SECRET}`, '--filter', '04-keyv.json', ...junit], {
    GITHUB_STEP_SUMMARY: summary,
  })
  await run(['coverage', NOTES, '--min', '99', '--out', join(dir, 'coverage')], {
    GITHUB_STEP_SUMMARY: summary,
  })
  const lines: string[] = []
  await tokensCommand([NOTES, '--out', join(dir, 'tokens'), '--summary', summary], {
    out: (text) => lines.push(text),
    err: (text) => lines.push(text),
  })
  outputs.push(lines.join('\n'))
  await run([
    'verify',
    NOTES,
    wrong,
    ...['--shadow', serve.url, '--control-token', CONTROL, ...junit],
    ...['--shadow-report', join(dir, 'shadow'), '--summary', summary],
  ])
  // A chaos run of the kit's, in this process, on an account holding the same secret: a client
  // that retries a 429 at once, found, shrunk and reported.
  const service = await startService({ baseUrl: 'https://chaos.summary.test', secrets: [SECRET] })
  vi.stubEnv('GITHUB_STEP_SUMMARY', summary)
  try {
    const settings = readChaosOptions('test', {
      seed: 'proof',
      runs: 2,
      rate: 0.5,
      kinds: ['throttle'],
    })
    const reporter = chaosReporter(
      async () => contractSource(service, 100),
      settings,
      () => {},
    )
    await reporter
      .run(chaosFrameOver(service), 'client.test.ts › reads back', () =>
        scenarios['reads back what it wrote']!(service, { noBackoff: true }),
      )
      .catch(() => undefined)
    await reporter.flush()
  } finally {
    vi.unstubAllEnvs()
    await service.stop()
  }
}, 120_000)

afterAll(async () => {
  await serve?.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('job summaries', () => {
  it('has a section from each producer, in the order they ran', () => {
    expect(sections().map((s) => s.split('\n', 1)[0])).toEqual([
      '### ❌ verify',
      '### ✅ conformance',
      '### ❌ authorization coverage: ' + /coverage: (.*)$/m.exec(sections()[2]!)![1],
      expect.stringMatching(
        /^### ✅ least privilege: the widest token reaches \d+ endpoints? beyond its use$/,
      ),
      '### ❌ verify --shadow',
      '### ✅ shadow: the engine beside the upstream',
      '### 🌀 chaos in client.test.ts (seed proof)',
    ])
  })

  it('gives a chaos run’s causes with the faulted exchange and the repro', () => {
    const chaos = sections()[6]!
    expect(chaos).toMatch(/^1 test × 2 runs \(\d runs?\), 1 failed, in 1 cause\.$/m)
    expect(chaos).toMatch(
      /^\| `[a-z]+\.\w+#\d:throttle\/1` \| reads back \| `[a-z]+\.\w+` \| 429 \| injected_fault: /m,
    )
    expect(chaos).toContain("SERVICE_PLAYGROUND_CHAOS='{")
  })

  it('shows a differing step as a compact diff, the token by its name', () => {
    const verify = sections()[0]!
    expect(verify).toContain('**0 passed**, 1 failed')
    expect(verify).toMatch(/step 2 \(keyv\.get\): `POST (\/a\/[a-z0-9]+)?\/keyv\/get`/)
    expect(verify).toContain(fenced('- result: {"title":"Milk"}\n+ result: null', 'diff'))
  })

  it('folds the cases skipped away', () => {
    const conformance = sections()[1]!
    expect(conformance).toMatch(/\*\*\d+ passed\*\*, 0 failed, [1-9]\d* skipped/)
    expect(conformance).toContain('<details><summary>skipped</summary>')
    expect(conformance).toContain('needs an empty account, which only the control plane can give')
  })

  it('gives coverage’s table and what keeps it below the gate', () => {
    const coverage = sections()[2]!
    expect(coverage).toMatch(/below the gate of 99%/)
    expect(coverage).toContain('**Not covered (what keeps it below the gate):**')
    expect(coverage).toMatch(/^\| endpoint \| calls \| outcomes \| limits \|$/m)
    expect(coverage).toMatch(/^\| `keyv\.get` \| 10 \| /m)
  })

  it('gives the shadow’s verdict beside the contracts’', () => {
    const [verify, shadow] = sections().slice(4)
    // The wrong contract fails against the upstream as against the engine: no difference of the engine's.
    expect(verify).toContain('**3 passed**, 1 failed')
    expect(shadow).toMatch(/\d+ exchanges compared, \*\*0 differ\*\*/)
  })

  it('holds no secret or token the runs used, nor any of their shape', () => {
    const text = readFileSync(summary, 'utf8')
    expect(text).not.toContain(SECRET)
    expect(text).not.toContain(CONTROL)
    expect(text).not.toMatch(/sk_[A-Za-z0-9_-]{12,}/)
    expect(text).not.toMatch(/[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{43}/)
    // The runs' own output named tokens too, as roles: the grep above would have found them.
    expect(outputs.join('\n')).toMatch(/\$auth1|\$secret/)
  })
})

describe('appendSummary', () => {
  it('withholds a section that would show a secret, saying so', () => {
    const file = join(dir, 'withheld.md')
    expect(appendSummary(file, `### leak\n\nkey ${SECRET.slice(0, 14)}…`, [SECRET])).toBe(false)
    expect(readFileSync(file, 'utf8')).toBe(
      '### ⚠️ a section was withheld\n\nIt would have shown a secret or token.\n\n',
    )
    expect(appendSummary(file, '### fine', [SECRET])).toBe(true)
    expect(readFileSync(file, 'utf8')).toMatch(/\n### fine\n\n$/)
  })

  it('writes nothing without a file', () => {
    expect(appendSummary(undefined, '### nowhere')).toBe(true)
  })
})
