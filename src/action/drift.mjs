// The action's drift mode (decision 092): when the `drift` input names contracts, the main step
// plays them against `drift-upstream` (the real service) with `service-playground drift`, after
// `serve` has started. A change fails the step (so a nightly job fails and later steps can
// upload the new contracts with `if: failure()`); drift's own section goes to the job's summary.
import { spawnSync } from 'node:child_process'
import { error, input, mask, setOutput } from './runner.mjs'

/** Runs drift when asked; `true` when nothing changed (or drift was not asked for). */
export function driftStep(command, directory) {
  const contracts = input('drift').split(/\s+/).filter(Boolean)
  if (contracts.length === 0) return true
  const upstream = input('drift-upstream')
  if (!upstream) {
    error('drift needs drift-upstream: the real service base URL, such as https://proc.run')
    return false
  }
  const secret = input('drift-secret')
  const controlToken = input('drift-control-token')
  mask(secret)
  mask(controlToken)
  const args = [
    'drift',
    ...contracts,
    '--upstream',
    upstream,
    '--report',
    input('drift-report') || 'drift-report',
    ...(input('drift-rate') ? ['--rate', input('drift-rate')] : []),
    ...(input('service-name') ? ['--service-name', input('service-name')] : []),
    ...(controlToken ? ['--control-token', controlToken] : []),
  ]
  const [program, ...rest] = command
  // The secret by the environment, never on a command line another process could read.
  const ran = spawnSync(program, [...rest, ...args], {
    cwd: directory,
    encoding: 'utf8',
    env: { ...process.env, ...(secret ? { SERVICE_PLAYGROUND_UPSTREAM_SECRET: secret } : {}) },
  })
  process.stdout.write(ran.stdout ?? '')
  process.stderr.write(ran.stderr ?? '')
  const code = ran.status ?? 1
  const changed = /: \d+ steps compared, (\d+) changed/.exec(ran.stdout ?? '')?.[1]
  if (changed !== undefined) setOutput('drift-changed', changed)
  if (code === 0) return true
  error(
    code === 1
      ? `drift: ${changed} step(s) answer differently upstream since their contracts were recorded (see the job summary)`
      : `drift could not compare (exit ${code}): see the step's log`,
  )
  return false
}
