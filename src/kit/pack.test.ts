/**
 * The kit as a client developer gets it: `npm pack`, installed into a fresh project outside
 * this checkout (so nothing resolves from its node_modules), and the README's kit examples run
 * there exactly as written, with the client suite in examples/proc-client.
 */
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnServe, type ServeProcess } from '../serve/spawn-serve'
import { cleanEnvironment, run, shown } from '../testing/run-command'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const README = readFileSync(join(ROOT, 'README.md'), 'utf8')
const PLAYWRIGHT_VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'node_modules/@playwright/test/package.json'), 'utf8')) as {
    version: string
  }
).version

/** The README's blocks marked `<!-- kit: <file> -->`, by file name. */
function kitBlocks(): Map<string, string> {
  const blocks = new Map<string, string>()
  for (const [, file, body] of README.matchAll(/<!-- kit: (\S+) -->\s*```\w*\n([\s\S]*?)\n```/g)) {
    blocks.set(file!, `${body}\n`)
  }
  return blocks
}

const work = mkdtempSync(join(tmpdir(), 'kit-pack-'))
let tarball = ''
// The fresh projects' node_modules are large: removing them takes a while on a busy machine.
afterAll(() => rm(work, { recursive: true, force: true }), 120_000)

/** A coverage file the kit wrote, without the run it names. */
function coverageOf(file: string): Record<string, unknown> {
  const { run: _run, ...collected } = JSON.parse(readFileSync(file, 'utf8')) as Record<
    string,
    unknown
  >
  return collected
}

/** The proc-client suite's coverage, as committed. */
const expectedCoverage = () =>
  JSON.parse(readFileSync(join(ROOT, 'examples/proc-client/coverage.expected.json'), 'utf8')) as {
    [key: string]: unknown
  }

beforeAll(async () => {
  const packed = await run('npm', ['pack', '--json', '--pack-destination', work], ROOT)
  expect(packed.code, shown(packed)).toBe(0)
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }]
  tarball = join(work, filename)
}, 300_000)

describe('the packed kit', () => {
  it('holds the compiled kit, its types and the cases, and no screenshots or sources', async () => {
    const listed = await run('tar', ['-tzf', tarball], work)
    const files = listed.stdout.split('\n').filter(Boolean)
    for (const file of [
      'package/kit/index.js',
      'package/kit/index.cjs',
      'package/kit/vitest.js',
      'package/kit/playwright.js',
      'package/kit/playwright.cjs',
      'package/kit/jest.js',
      'package/kit/jest.cjs',
      'package/kit/cli.js',
      'package/kit/types/src/kit/index.d.ts',
      'package/kit/types/src/kit/vitest.d.ts',
      'package/kit/types/src/kit/playwright.d.ts',
      'package/kit/types/src/kit/playwright.d.cts',
      'package/kit/cases/03-authorization.json',
      'package/README.md',
      'package/docs/node-api.md',
    ]) {
      expect(files, file).toContain(file)
    }
    expect(files.filter((file) => /\.png$|^package\/src\//.test(file))).toEqual([])
  })

  it('installs lean into an empty project, as the README says', async () => {
    const dir = join(work, 'lean')
    rmSync(dir, { recursive: true, force: true })
    await run('mkdir', ['-p', dir], work)
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'lean', private: true }))
    const installed = await run('npm', ['i', '-D', tarball, '--no-audit', '--no-fund'], dir)
    expect(installed.code, shown(installed)).toBe(0)
    for (const absent of [
      'better-sqlite3',
      'pg',
      'react',
      'vite',
      'idb',
      '@tanstack/react-query',
    ]) {
      expect(existsSync(join(dir, 'node_modules', absent)), absent).toBe(false)
    }
    const listed = await run('npm', ['ls', '--all', '--parseable'], dir)
    const packages = listed.stdout.split('\n').filter(Boolean).length - 1
    const size = await run('du', ['-sk', join(dir, 'node_modules')], dir)
    const megabytes = Number(size.stdout.split('\t')[0]) / 1024
    console.log(
      `npm i -D <tarball>: ${packages} packages, ${megabytes.toFixed(1)} MB, ${installed.seconds.toFixed(1)} s`,
    )
    const [, said, saidMb] = /adds (\d+) packages \(([\d.]+) MB\)/.exec(README) ?? []
    expect(said, 'the README states the install size').toBeDefined()
    // The README's figures hold within a fifth (the registry moves under semver ranges).
    expect(Math.abs(packages - Number(said)) / Number(said)).toBeLessThan(0.2)
    expect(Math.abs(megabytes - Number(saidMb)) / Number(saidMb)).toBeLessThan(0.2)

    const help = await run('npx', ['service-playground', 'help'], dir)
    expect(help.stdout).toMatch(/^usage: service-playground <command>/)
    for (const command of ['serve', 'conformance', 'verify', 'coverage']) {
      const flags = await run('npx', ['service-playground', command, '--help'], dir)
      expect([flags.code, flags.stdout.split('\n')[0]]).toEqual([
        0,
        expect.stringMatching(new RegExp(`^usage: service-playground ${command} `)),
      ])
    }
    const data = await run(
      'npx',
      ['service-playground', 'serve', '--port', '0', '--data', join(dir, 'x.db')],
      dir,
    )
    expect(data.code).not.toBe(0)
    expect(data.stderr).toMatch(/npm i(nstall)? -D better-sqlite3/)
  }, 300_000)

  describe('the README and the client suite, in a fresh project', () => {
    const dir = join(work, 'consumer')
    const blocks = kitBlocks()
    let server: ServeProcess | undefined

    beforeAll(async () => {
      await run('mkdir', ['-p', dir], work)
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({
          name: 'consumer',
          private: true,
          jest: { testMatch: ['<rootDir>/client.test.js'] },
        }),
      )
      const installed = await run(
        'npm',
        [
          'i',
          '-D',
          tarball,
          'vitest@^4',
          `@playwright/test@${PLAYWRIGHT_VERSION}`,
          'jest@^30',
          'typescript@~5.9',
          '@types/node@^20',
          '--no-audit',
          '--no-fund',
        ],
        dir,
      )
      expect(installed.code, shown(installed)).toBe(0)
      for (const [file, body] of blocks) writeFileSync(join(dir, file), body)
      cpSync(join(ROOT, 'examples/proc-client'), join(dir, 'proc-client'), { recursive: true })
      writeFileSync(
        join(dir, 'playwright.config.ts'),
        readFileSync(join(ROOT, 'examples/proc-client/playwright.config.ts'), 'utf8').replace(
          "testDir: 'e2e',",
          "testDir: '.', testMatch: ['client.spec.ts', 'contract.spec.ts'],",
        ),
      )
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            target: 'es2022',
            module: 'preserve',
            moduleResolution: 'bundler',
            types: ['node'],
            lib: ['es2023', 'dom'],
          },
          include: [
            'consumer.ts',
            'client.test.ts',
            'policy.test.ts',
            'client.spec.ts',
            'contract.spec.ts',
            'proc-client/e2e',
          ],
        }),
      )
    }, 600_000)

    afterAll(() => server?.stop())

    it('marks every example the README shows for the kit', () => {
      expect([...blocks.keys()].sort()).toEqual([
        'client.py',
        'client.spec.ts',
        'client.test.js',
        'client.test.ts',
        'conformance.sh',
        'consumer.ts',
        'contract.spec.ts',
        'faults.sh',
        'policy.test.ts',
        'python.sh',
        'serve.sh',
        'verify.sh',
      ])
    })

    it('type-checks under tsc --strict with the shipped declarations', async () => {
      const checked = await run('npx', ['tsc', '-p', '.'], dir)
      expect(checked.code, shown(checked)).toBe(0)
    }, 120_000)

    it('type-checks a consumer under bundler, nodenext and node16, ES module and CommonJS, lib checks on', async () => {
      const esm = [
        "import { startService, type Service } from 'service-playground'",
        "import { useService } from 'service-playground/vitest'",
        "import { expect, test } from 'service-playground/playwright'",
        "import { matchers, useService as useJestService } from 'service-playground/jest'",
        "const file = useService({ baseUrl: 'https://proc.run', serviceName: 'proc' })",
        "const jestFile: Promise<string> = useJestService({ secrets: ['k'] }).authorize(['core'])",
        "const started: Promise<Service> = startService({ baseUrl: 'https://x.test' })",
        "test('t', async ({ service }) => { await expect(service).toHaveReceived('core.ping', { times: 1 }) })",
        '// @ts-expect-error: an option the helper does not take is a type error, not `any`',
        "useService({ baseUrll: 'https://proc.run' })",
        'void file, started, matchers',
      ].join('\n')
      const cjs = [
        "import { startService, type Service } from 'service-playground'",
        "import { test } from 'service-playground/playwright'",
        "import { useService } from 'service-playground/jest'",
        "const started: Promise<Service> = startService({ baseUrl: 'https://x.test' })",
        "const jestFile: Array<string | null> = useService({ serviceName: 'proc' }).requests({ status: 200 }).map((r) => r.endpoint)",
        "const overServe: Promise<string> = useService({ serve: { url: 'http://127.0.0.1:1', controlToken: 't' } }).authorize(['core'])",
        '// @ts-expect-error: an option the Jest helper does not take, misspelt',
        "void useService({ coverag: 'c.json' })",
        "test('t', async ({ service }) => { const token: string = await service.authorize(['core']); void token })",
        '// @ts-expect-error: as in ES modules',
        "void startService({ secret: ['x'] })",
        'void started, jestFile, overServe',
      ].join('\n')
      const resolutions = [
        ['bundler', 'preserve', ['esm.ts']],
        ['nodenext', 'nodenext', ['esm.ts', 'cjs.cts']],
        ['node16', 'node16', ['esm.ts', 'cjs.cts']],
      ] as const
      // One project per resolution, checked side by side.
      const checked = await Promise.all(
        resolutions.map(async ([resolution, module, files]) => {
          const project = join(dir, `types-${resolution}`)
          await run('mkdir', ['-p', project], dir)
          writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module' }))
          writeFileSync(join(project, 'esm.ts'), esm)
          writeFileSync(join(project, 'cjs.cts'), cjs)
          writeFileSync(
            join(project, 'tsconfig.json'),
            JSON.stringify({
              compilerOptions: {
                strict: true,
                noEmit: true,
                target: 'es2022',
                module,
                moduleResolution: resolution,
                skipLibCheck: false,
                exactOptionalPropertyTypes: true,
                types: ['node'],
                lib: ['es2023', 'dom'],
              },
              files,
            }),
          )
          return [resolution, await run('npx', ['tsc', '-p', project], dir)] as const
        }),
      )
      for (const [resolution, result] of checked) {
        expect(result.code, `${resolution}: ${shown(result)}`).toBe(0)
      }
    }, 180_000)

    it('runs the Vitest example', async () => {
      const ran = await run('npx', ['vitest', 'run', 'client.test.ts', 'policy.test.ts'], dir)
      expect(ran.code, shown(ran)).toBe(0)
      expect(ran.stdout).toMatch(/Tests\s+3 passed/)
    }, 120_000)

    it('runs the Jest example, in CommonJS', async () => {
      const ran = await run('npx', ['jest'], dir)
      expect(ran.code, shown(ran)).toBe(0)
      // Two tests: the second finds what the first rolled undone, with a journal of its own.
      expect(ran.stderr).toMatch(/Tests:\s+2 passed/)
    }, 120_000)

    it('runs the Playwright examples, one recording a contract with no token in it', async () => {
      const ran = await run('npx', ['playwright', 'test'], dir)
      expect(ran.code, shown(ran)).toBe(0)
      expect(ran.stdout).toMatch(/2 passed/)
      const contract = readFileSync(join(dir, 'contracts/strings.json'), 'utf8')
      expect(contract).toMatch(/"call": "type\.string\.reverse",\s+"token": "\$auth1"/)
      expect(contract).not.toMatch(/[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{43}/)
    }, 120_000)

    it('serves over HTTP for curl, Python and the conformance suite', async () => {
      const words = blocks.get('serve.sh')!.trim().split(/\s+/)
      expect(words.slice(0, 3)).toEqual(['npx', 'service-playground', 'serve'])
      server = await spawnServe(words.slice(3), { cwd: dir, env: cleanEnvironment() })
      expect(server.url).toBe('http://127.0.0.1:8787')
      const python = await run('bash', ['python.sh'], dir)
      expect([python.code, python.stdout]).toEqual([0, 'olleh\n'])
      const faults = await run('bash', ['faults.sh'], dir)
      expect(faults.code, shown(faults)).toBe(0)
      expect(faults.stdout).toMatch(/^429 200\n/)
      const conformance = await run('bash', ['conformance.sh'], dir)
      expect(conformance.code, shown(conformance)).toBe(0)
      expect(conformance.stdout).toMatch(/passed/)
      expect(conformance.stdout).not.toMatch(/\bskipped\b.*control plane/)
      // The contract the Playwright example recorded, verified against that serve.
      const verified = await run('bash', ['verify.sh'], dir)
      expect(verified.code, shown(verified)).toBe(0)
      expect(verified.stdout).toMatch(/base-url: 1 passed, 0 failed, 0 skipped, 1 contract/)
    }, 300_000)

    it('runs a client suite isolated per file: in-process, and over one serve', async () => {
      const ran = await run('npx', ['vitest', 'run'], join(dir, 'proc-client'))
      expect(ran.code, shown(ran)).toBe(0)
      // Five files, each in process and over serve: fixtures in beforeAll and describe blocks,
      // concurrent tests.
      expect(ran.stdout).toMatch(/Test Files\s+10 passed/)
      // The coverage of its in-process run, added up across its files and workers, is the
      // one committed, and so is its run over serve (each exchange tallied once, concurrent
      // siblings' included); the coverage command reads it and gates on it.
      for (const file of ['service-coverage.json', 'service-coverage.serve.json']) {
        expect(coverageOf(join(dir, 'proc-client', file)), file).toEqual(expectedCoverage())
      }
      const args = ['service-playground', 'coverage', 'proc-client/service-coverage.json']
      const passed = await run('npx', [...args, '--min', '45'], dir)
      expect(passed.code, shown(passed)).toBe(0)
      expect(passed.stdout).toMatch(/^authorization coverage: 45\.4% /)
      const failed = await run('npx', [...args, '--min', '90'], dir)
      expect([failed.code, failed.stderr.trim()]).toEqual([1, 'coverage 45.4% is below --min 90%'])
      expect(readFileSync(join(dir, 'service-coverage/report.html'), 'utf8')).toMatch(/^<!doctype/)
      // Each file's run over the seeded serve, recorded, answers byte for byte the same sent
      // again in process, through msw, and over serve (the one started above, unseeded: the
      // recording's start brings its seed).
      const recordings = readdirSync(join(dir, 'proc-client/recordings')).map(
        (name) => `proc-client/recordings/${name}`,
      )
      expect(recordings).toHaveLength(5)
      const targets = [
        ['--target', 'handle'],
        ['--target', 'msw'],
        ['--target', server!.url, `--control-token=${server!.controlToken}`],
      ]
      for (const target of targets) {
        const replayed = await run(
          'npx',
          ['service-playground', 'replay', ...recordings, ...target],
          dir,
        )
        expect(replayed.code, shown(replayed)).toBe(0)
        const [, same, all] = /in all: (\d+) of (\d+) exchanges replayed identically/.exec(
          replayed.stdout,
        )!
        expect(same).toBe(all)
        expect(Number(all)).toBeGreaterThan(300)
      }
    }, 300_000)

    it('runs the same client suite under Jest, unchanged, with the same frames: in-process, and over one serve', async () => {
      const ran = await run('npx', ['jest'], join(dir, 'proc-client'), {
        NODE_OPTIONS: '--experimental-vm-modules',
      })
      expect(ran.code, shown(ran)).toBe(0)
      // The suite's five files (fixtures in beforeAll and describe blocks, concurrent tests) in
      // each project, and the Jest-only file in which concurrent tests on one key each have a
      // copy of their own, in process.
      expect(ran.stderr).toMatch(/Test Suites:\s+11 passed, 11 total/)
      expect(ran.stderr).toMatch(/Tests:\s+32 passed, 32 total/)
      for (const project of ['in-process', 'serve']) {
        for (const file of ['enumerating', 'concurrent', 'notes', 'drafts', 'strings']) {
          expect(ran.stderr).toMatch(new RegExp(`PASS ${project} test/${file}\\.test\\.js`))
        }
      }
      expect(ran.stderr).toMatch(/PASS in-process jest\/concurrent\.test\.js/)
      // Over serve, the run's authorization coverage is the one the same files give in process
      // under Vitest: each exchange tallied once, concurrent siblings' included, fixtures not.
      const project = join(dir, 'proc-client')
      expect(coverageOf(join(project, 'service-coverage.jest.json'))).toEqual(expectedCoverage())
      // And every passing test that called the service is a case of the contract, by its name.
      const { cases } = JSON.parse(readFileSync(join(project, 'contracts/jest.json'), 'utf8')) as {
        cases: Array<{ name: string }>
      }
      expect(cases).toHaveLength(14)
      expect(new Set(cases.map(({ name }) => name.split(' › ')[0]))).toEqual(
        new Set(
          ['concurrent', 'drafts', 'enumerating', 'notes', 'strings'].map(
            (f) => `test/${f}.test.js`,
          ),
        ),
      )
    }, 300_000)

    it('runs a Playwright suite isolated per test: in-process, and one account per worker', async () => {
      const project = join(dir, 'proc-client')
      const inProcess = await run('npx', ['playwright', 'test', '--repeat-each', '2'], project)
      expect(inProcess.code, shown(inProcess)).toBe(0)
      expect(inProcess.stdout).toMatch(/8 passed/)
      const team = await spawnServe(['--port', '0', '--service-name', 'proc'], {
        cwd: dir,
        env: cleanEnvironment(),
      })
      try {
        const overServe = await run('npx', ['playwright', 'test', '--repeat-each', '2'], project, {
          SERVICE_PLAYGROUND_URL: team.url,
          SERVICE_PLAYGROUND_CONTROL_TOKEN: team.controlToken,
        })
        expect(overServe.code, shown(overServe)).toBe(0)
        expect(overServe.stdout).toMatch(/8 passed/)
        // Every worker's account was removed when the worker ended.
        const left = await fetch(`${team.url}/_accounts`, {
          headers: { authorization: `Bearer ${team.controlToken}` },
        })
        expect(await left.json()).toEqual([])
      } finally {
        await team.stop()
      }
    }, 300_000)
  })
})
