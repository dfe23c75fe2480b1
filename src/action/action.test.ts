// The action's steps run as a GitHub runner runs them: its inputs in `INPUT_*`, the files
// `GITHUB_OUTPUT`, `GITHUB_ENV`, `GITHUB_STATE` and `GITHUB_STEP_SUMMARY` set, the post step
// at the end with what the main step saved. The project is a fresh one with the kit installed
// (this checkout's) and the job's own part is examples/proc-client's
// client calling the account the action opened.
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connect } from '../../examples/proc-client/client.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const project = mkdtempSync(join(tmpdir(), 'action-project-'))
afterAll(() => rmSync(project, { recursive: true, force: true }))

// The project: a manifest, and the kit installed as node_modules/service-playground, whose
// command is this checkout's, bundled by esbuild as the packed kit's is (packages left as
// imports, found in this checkout's node_modules), so that each step starts in well under a
// second.
writeFileSync(join(project, 'package.json'), '{ "private": true, "type": "module" }\n')
const kit = join(project, 'node_modules/service-playground')
mkdirSync(kit, { recursive: true })
const bundled = join(ROOT, 'node_modules/.cache/action-test', `cli-${process.pid}.mjs`)
beforeAll(async () => {
  await build({
    entryPoints: [join(ROOT, 'src/cli/bin.ts')],
    outfile: bundled,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
  })
}, 60_000)
afterAll(() => rmSync(bundled, { force: true }))
writeFileSync(
  join(kit, 'package.json'),
  JSON.stringify({
    name: 'service-playground',
    type: 'module',
    bin: { 'service-playground': 'cli.mjs' },
    exports: { './package.json': './package.json' },
  }),
)
writeFileSync(
  join(kit, 'cli.mjs'),
  `await import(${JSON.stringify(pathToFileURL(bundled).href)})\n`,
)

/** The `name=value` lines a runner's file holds. */
function commandFile(path: string): Record<string, string> {
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean)
  return Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  )
}

/** One job: the main step with `inputs`, then whatever `between` does, then the post step. */
async function job(
  inputs: Record<string, string>,
  between: (outputs: Record<string, string>) => Promise<void>,
) {
  const runner = mkdtempSync(join(tmpdir(), 'action-runner-'))
  const files = Object.fromEntries(
    ['GITHUB_OUTPUT', 'GITHUB_ENV', 'GITHUB_STATE', 'GITHUB_STEP_SUMMARY'].map((name) => {
      writeFileSync(join(runner, name), '')
      return [name, join(runner, name)]
    }),
  )
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    RUNNER_TEMP: runner,
    ...files,
    ...Object.fromEntries(
      Object.entries(inputs).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value]),
    ),
  }
  const step = async (script: string, extra: Record<string, string> = {}) => {
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [join(ROOT, 'src/action', script)],
        {
          cwd: project,
          env: { ...env, ...extra },
          timeout: 90_000,
        },
      )
      return { code: 0, stdout }
    } catch (error) {
      const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string }
      return { code, stdout: `${stdout}${stderr}` }
    }
  }
  const main = await step('main.mjs')
  expect(main.code, main.stdout).toBe(0)
  const outputs = commandFile(files.GITHUB_OUTPUT!)
  const saved = commandFile(files.GITHUB_STATE!)
  try {
    await between(outputs)
  } finally {
    const post = await step(
      'post.mjs',
      Object.fromEntries(Object.entries(saved).map(([name, value]) => [`STATE_${name}`, value])),
    )
    Object.assign(outputs, {
      postCode: String(post.code),
      postLog: post.stdout,
      mainLog: main.stdout,
    })
  }
  return {
    outputs,
    environment: commandFile(files.GITHUB_ENV!),
    pid: Number(saved.pid),
    summary: readFileSync(files.GITHUB_STEP_SUMMARY!, 'utf8'),
  }
}

const gone = (pid: number) => {
  try {
    process.kill(pid, 0)
    return false
  } catch {
    return true
  }
}

describe('the GitHub Action, its steps run as a runner runs them', () => {
  it('starts serve, opens the job an account, verifies contracts and gates coverage at the end, and stops serve', async () => {
    let answered: unknown
    const { outputs, environment, pid, summary } = await job(
      {
        'service-name': 'proc',
        verify: join(ROOT, 'examples/notes/contracts'),
        'coverage-min': '40',
        'coverage-file': join(ROOT, 'examples/proc-client/coverage.expected.json'),
      },
      async ({ 'base-url': baseUrl, secret }) => {
        // The job's own tests: the example's client against the account the action opened.
        const proc = connect(secret!, { baseUrl, serviceName: 'proc' })
        answered = await proc.call('type.string.reverse', 'olleh')
      },
    )
    expect(answered).toBe('hello')
    expect(outputs.mainLog).toMatch(/^::add-mask::/m)
    expect(outputs.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(outputs['base-url']).toMatch(new RegExp(`^${outputs.url}/a/[\\w-]+$`))
    expect(environment).toEqual({
      SERVICE_PLAYGROUND_URL: outputs.url,
      SERVICE_PLAYGROUND_CONTROL_TOKEN: outputs['control-token'],
      SERVICE_PLAYGROUND_BASE_URL: outputs['base-url'],
      SERVICE_PLAYGROUND_SECRET: outputs.secret,
      SERVICE_PLAYGROUND_ACCOUNT_CONTROL_TOKEN: outputs['account-control-token'],
    })
    expect(outputs.postCode, outputs.postLog).toBe('0')
    expect(summary).toContain("**verify** against the job's serve: 1 contract file(s) hold")
    expect(summary).toMatch(
      /\*\*coverage\*\* of `.*coverage\.expected\.json`: authorization coverage: 45\.4% .*; at or above --min 40%/,
    )
    expect(summary).toContain(`**serve** at ${outputs.url}: stopped`)
    for (const value of [
      outputs.secret,
      outputs['control-token'],
      outputs['account-control-token'],
    ]) {
      expect(value!.length).toBeGreaterThan(8)
      expect(summary).not.toContain(value)
      expect(outputs.postLog).not.toContain(value)
    }
    expect(gone(pid)).toBe(true)
    await expect(fetch(`${outputs.url}/core/ping`, { method: 'POST' })).rejects.toThrow()
  }, 120_000)

  it('fails the job when coverage is below coverage-min, and still stops serve', async () => {
    const { outputs, pid, summary } = await job(
      {
        'coverage-min': '50',
        'coverage-file': join(ROOT, 'examples/proc-client/coverage.expected.json'),
      },
      async () => {},
    )
    expect(outputs.postCode).toBe('1')
    expect(outputs.postLog).toMatch(/^::error::service-playground: a gate failed/m)
    expect(summary).toMatch(/authorization coverage: 45\.4% .*; \*\*below --min 50%\*\*/)
    expect(summary).toContain(': stopped')
    expect(gone(pid)).toBe(true)
  }, 120_000)
})
