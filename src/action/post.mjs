// The action's post step, run when the job ends (whatever became of it): the gates the inputs
// ask for — `verify` of contracts, the coverage `--min` — then `serve` stopped, and what they
// found in the job's summary. It fails the job when a gate fails.
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { kitCommand } from './kit-command.mjs'
import { error, input, mask, state, summary } from './runner.mjs'

/** How long `serve` may take to stop: its own bounded stop is 5 s; thrice, then it is killed. */
const STOP_MS = 15_000

/** The contract files the `verify` input names: files as given, folders as their `*.json`. */
export function contractFiles(directory, named) {
  return named
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((path) => {
      const full = resolve(directory, path)
      if (!statSync(full, { throwIfNoEntry: false })?.isDirectory()) return [path]
      return readdirSync(full)
        .filter((name) => name.endsWith('.json'))
        .sort()
        .map((name) => join(path, name))
    })
}

/** Runs the kit's command, its output in the step's log; its exit code and what it printed. */
function run(command, args, directory) {
  const [program, ...rest] = command
  const ran = spawnSync(program, [...rest, ...args], { cwd: directory, encoding: 'utf8' })
  process.stdout.write(ran.stdout ?? '')
  process.stderr.write(ran.stderr ?? '')
  return { code: ran.status ?? 1, stdout: ran.stdout ?? '', stderr: ran.stderr ?? '' }
}

const alive = (pid) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Stops `serve`'s process group: SIGTERM, its bounded stop, then SIGKILL past `STOP_MS`. */
async function stop(pid) {
  try {
    process.kill(-pid, 'SIGTERM')
  } catch {
    return 'had already stopped'
  }
  const started = Date.now()
  while (alive(pid)) {
    if (Date.now() - started > STOP_MS) {
      process.kill(-pid, 'SIGKILL')
      return `did not stop within ${STOP_MS / 1000} s and was killed`
    }
    await sleep(50)
  }
  return 'stopped'
}

async function post() {
  const pid = Number(state('pid'))
  if (!pid) return console.log('service-playground serve was not started: nothing to stop')
  const url = state('url')
  const controlToken = state('control-token')
  const temp = state('temp')
  const directory = resolve(input('working-directory') || '.')
  const lines = ['### service-playground', '']
  let failed = false
  try {
    const command = kitCommand(directory)
    const serviceName = input('service-name') ? ['--service-name', input('service-name')] : []
    const contracts = contractFiles(directory, input('verify'))
    if (contracts.length > 0) {
      const against = input('verify-url')
      const target = against
        ? ['--base-url', against, '--secret', input('verify-secret')]
        : ['--base-url', url, '--control-token', controlToken]
      if (against && input('verify-control-token')) {
        target.push('--control-token', input('verify-control-token'))
      }
      mask(input('verify-secret'))
      mask(input('verify-control-token'))
      const junit = join(temp, 'contract-results.xml')
      const { code } = run(
        command,
        ['verify', ...contracts, ...target, ...serviceName, '--junit', junit],
        directory,
      )
      failed ||= code !== 0
      const where = against ? `against ${against}` : "against the job's serve"
      lines.push(
        `- **verify** ${where}: ${contracts.length} contract file(s) ${code === 0 ? 'hold' : `**failed** (exit ${code})`}: ${contracts.map((c) => `\`${c}\``).join(', ')}`,
      )
    }
    const min = input('coverage-min')
    if (min) {
      const file = input('coverage-file') || 'service-coverage.json'
      const out = join(temp, 'coverage')
      const { code, stdout } = run(
        command,
        ['coverage', file, '--min', min, '--out', out, ...serviceName],
        directory,
      )
      failed ||= code !== 0
      const score = /^authorization coverage: .*$/m.exec(stdout)?.[0] ?? `no report (exit ${code})`
      lines.push(
        `- **coverage** of \`${file}\`: ${score}; ${code === 0 ? `at or above --min ${min}%` : `**below --min ${min}%** or unreadable`}`,
      )
    }
  } catch (failure) {
    error(failure.message)
    failed = true
  } finally {
    const stopped = await stop(pid)
    lines.push(`- **serve** at ${url}: ${stopped}`)
    summary(`${lines.join('\n')}\n`)
  }
  if (failed) {
    error('service-playground: a gate failed (see the job summary)')
    process.exitCode = 1
  }
}

await post()
