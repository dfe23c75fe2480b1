import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { runServe, type RunningServe } from '../server/spawn-serve'

/** Starting `npm run serve` as a user does, for the tests that need a real process. */

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const started: RunningServe[] = []

export type Started = RunningServe

export interface ServeOptions {
  /** A command `npm` runs inside, such as `unshare` with its flags. */
  wrap?: string[]
}

/** Runs `npm run serve -- ...args` in its own process group, so the whole tree can be signalled. */
export function serve(args: string[], { wrap = [] }: ServeOptions = {}): Started {
  const running = runServe(args, { command: [...wrap, 'npm', 'run', 'serve', '--'], cwd: ROOT })
  started.push(running)
  return running
}

/** Resolves with the server's URL once it prints `listening on <url>`. */
export async function listening(started: Started): Promise<string> {
  const line = await started.line(/^listening on http:\/\/\S+$/)
  return line.slice('listening on '.length)
}

export function post(
  url: string,
  token: string,
  body: string,
  headers: Record<string, string> = {},
) {
  return fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...headers },
    body,
  })
}

/** Sends `signal` to every process of the tree `serve` started, as a terminal's Ctrl+C does. */
export function signalGroup({ child }: Started, signal: NodeJS.Signals): void {
  process.kill(-child.pid!, signal)
}

/** Stops every server these helpers started, and waits until each whole tree has ended. */
export async function stopAll(): Promise<void> {
  for (const running of started) await running.stop()
}

/** Starts `npm run serve -- --port 0 ...args` and resolves once it listens, with its URL. */
export async function startServe(
  args: string[],
  options?: ServeOptions,
): Promise<Started & { url: string }> {
  const running = serve(['--port', '0', ...args], options)
  return { ...running, url: await listening(running) }
}

/** Ends a server the way a crash does: no chance to flush or close anything. */
export async function crash(started: Started): Promise<void> {
  signalGroup(started, 'SIGKILL')
  await started.ended
}

/** The headers of a call written in the tuple language (`vnd.service+json`), answered in JSON. */
export const TUPLES = { 'content-type': 'application/vnd.service+json', accept: 'application/json' }

/** Calls endpoint `name` (dotted) with `body` in the tuple language: its status and JSON answer. */
export async function callTuples(url: string, token: string, name: string, body: unknown[]) {
  const response = await post(
    `${url}/${name.split('.').join('/')}`,
    token,
    JSON.stringify(body),
    TUPLES,
  )
  return { status: response.status, value: (await response.json()) as unknown }
}

/**
 * CPU seconds (user and system) that every process of a `serve` tree has used so far, read
 * from `/proc`: what a server still spends on work no one waits for shows here.
 */
export function cpuSeconds({ child }: Started): number {
  let ticks = 0
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
    } catch {
      continue
    }
    // After the command's name in parentheses: state, ppid, pgrp, … utime (12th), stime (13th).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(fields[2]) !== child.pid) continue
    ticks += Number(fields[11]) + Number(fields[12])
  }
  // Linux counts in clock ticks of 1/100 s.
  return ticks / 100
}
