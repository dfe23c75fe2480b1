import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

/** Starting `npm run serve` as a user does, for the tests that need a real process. */

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const started: Array<{ child: ChildProcess; done: boolean; ended: Promise<unknown> }> = []

export interface Started {
  child: ChildProcess
  /** Everything printed so far, on each stream. */
  output: { stdout: string; stderr: string }
  /** Resolves with the first line printed (on either stream, so far or later) that matches. */
  line(pattern: RegExp): Promise<string>
  /**
   * Resolves once every process of the tree has ended: `npm` and the server it started, which
   * holds the same output pipes. `npm`'s own exit says nothing about the server's.
   */
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

export interface ServeOptions {
  /** A command `npm` runs inside, such as `unshare` with its flags. */
  wrap?: string[]
}

/** Runs `npm run serve -- ...args` in its own process group, so the whole tree can be signalled. */
export function serve(args: string[], { wrap = [] }: ServeOptions = {}): Started {
  const [program, ...rest] = [...wrap, 'npm', 'run', 'serve', '--', ...args]
  const child = spawn(program!, rest, {
    cwd: ROOT,
    shell: false,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output = { stdout: '', stderr: '' }
  const waiting = new Set<{ pattern: RegExp; resolve: (line: string) => void }>()
  for (const stream of ['stdout', 'stderr'] as const) {
    createInterface({ input: child[stream]! }).on('line', (line) => {
      output[stream] += `${line}\n`
      for (const waiter of waiting) {
        if (!waiter.pattern.test(line)) continue
        waiting.delete(waiter)
        waiter.resolve(line)
      }
    })
  }
  const ended = once(child, 'close').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }))
  const entry = { child, done: false, ended }
  started.push(entry)
  void ended.then(() => (entry.done = true))
  const line = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const printed = `${output.stdout}${output.stderr}`.split('\n').find((l) => pattern.test(l))
      if (printed !== undefined) return resolve(printed)
      waiting.add({ pattern, resolve })
      void ended.then(() =>
        reject(
          new Error(`serve ended before printing ${pattern}:\n${output.stdout}${output.stderr}`),
        ),
      )
    })
  return { child, output, line, ended }
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
  for (const { child, done, ended } of started) {
    if (done) continue
    try {
      process.kill(-child.pid!, 'SIGTERM')
    } catch {
      // The group is gone already.
    }
    await ended
  }
}
