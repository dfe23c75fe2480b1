// The action's main step: starts `service-playground serve` for the job (in memory, or over
// `data`), opens an account on it, and gives the job its URL, secret and control token as
// outputs and environment; then, when the `drift` input names contracts, plays them against the
// real service. It runs nothing of the job's own; the post step stops the server.
import { spawn } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { driftStep } from './drift.mjs'
import { kitCommand } from './kit-command.mjs'
import { error, exportVariable, input, mask, saveState, setOutput } from './runner.mjs'

/** How long `serve` may take to say where it listens: a cold start on a busy runner, thrice. */
const START_MS = 60_000

/** The flags `serve` is started with, from the inputs. */
export function serveFlags(controlTokenFile) {
  const flags = ['serve', '--port', input('port') || '0', '--control-token-file', controlTokenFile]
  if (input('service-name')) flags.push('--service-name', input('service-name'))
  if (input('data')) flags.push('--data', input('data'))
  const extra = input('serve-args')
  if (extra) flags.push(...extra.split(/\s+/))
  return flags
}

/** Lines of serve's log a job's page may show: none that carries a secret or a token. */
const shown = (log) =>
  log
    .split('\n')
    .filter((line) => !/secret|token/i.test(line))
    .join('\n')

async function main() {
  const directory = resolve(input('working-directory') || '.')
  const [program, ...rest] = kitCommand(directory)
  const temp = mkdtempSync(join(process.env.RUNNER_TEMP || tmpdir(), 'service-playground-'))
  const logFile = join(temp, 'serve.log')
  const tokenFile = join(temp, 'control-token')
  const log = openSync(logFile, 'a')
  // In a process group of its own, detached: it outlives this step, and the post step stops
  // the whole group.
  const child = spawn(program, [...rest, ...serveFlags(tokenFile)], {
    cwd: directory,
    detached: true,
    stdio: ['ignore', log, log],
  })
  closeSync(log)
  child.unref()
  saveState('pid', child.pid)
  saveState('temp', temp)
  let ended = false
  child.on('exit', () => (ended = true))

  const started = Date.now()
  let url
  for (;;) {
    const text = readFileSync(logFile, 'utf8')
    url = /^listening on (\S+)/m.exec(text)?.[1]
    if (url) break
    if (ended || Date.now() - started > START_MS) {
      throw new Error(
        `service-playground serve did not start${ended ? '' : ` within ${START_MS / 1000} s`}:\n${shown(text)}`,
      )
    }
    await sleep(100)
  }
  const controlToken = readFileSync(tokenFile, 'utf8').trim()
  mask(controlToken)
  saveState('url', url)
  saveState('control-token', controlToken)

  const response = await fetch(`${url}/_accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${controlToken}`, 'content-type': 'application/json' },
    body: '{}',
  })
  if (response.status !== 201) {
    throw new Error(
      `opening the job's account answered ${response.status}: ${await response.text()}`,
    )
  }
  const account = await response.json()
  mask(account.secret)
  mask(account.controlToken)
  const values = {
    url: ['SERVICE_PLAYGROUND_URL', url],
    'control-token': ['SERVICE_PLAYGROUND_CONTROL_TOKEN', controlToken],
    'base-url': ['SERVICE_PLAYGROUND_BASE_URL', account.baseUrl],
    secret: ['SERVICE_PLAYGROUND_SECRET', account.secret],
    'account-control-token': ['SERVICE_PLAYGROUND_ACCOUNT_CONTROL_TOKEN', account.controlToken],
  }
  for (const [name, [variable, value]] of Object.entries(values)) {
    setOutput(name, value)
    exportVariable(variable, value)
  }
  console.log(
    `service-playground serve: listening on ${url}; the job's account at ${account.baseUrl}`,
  )
  if (!driftStep([program, ...rest], directory)) process.exitCode = 1
}

try {
  await main()
} catch (failure) {
  error(failure.message)
  process.exitCode = 1
}
