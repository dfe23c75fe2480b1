import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'

export interface RunServeOptions {
  /** How to start it; default `npx service-playground serve`. The flags follow. */
  command?: readonly string[]
  cwd?: string
  env?: NodeJS.ProcessEnv
}

/** A `serve` process as it runs: what it printed, and how it ends. */
export interface RunningServe {
  child: ChildProcess
  /** Everything printed so far, on each stream. */
  output: { stdout: string; stderr: string }
  /** Resolves with the first line printed (on either stream, so far or later) that matches. */
  line(pattern: RegExp): Promise<string>
  /**
   * Resolves once every process of its tree has ended — a launcher such as `npx` or `npm` and
   * the server it started, which holds the same output pipes: the launcher's own exit says
   * nothing about the server's.
   */
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Signals its whole process group (SIGTERM by default) and waits until the tree has ended. */
  stop(signal?: NodeJS.Signals): Promise<void>
}

/** Starts `serve` with `args` in a process group of its own, so its whole tree can be signalled. */
export function runServe(
  args: readonly string[] = [],
  { command = ['npx', 'service-playground', 'serve'], cwd, env }: RunServeOptions = {},
): RunningServe {
  const [program, ...rest] = command
  const child = spawn(program!, [...rest, ...args], {
    cwd,
    env,
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
  let done = false
  void ended.then(() => (done = true))
  return {
    child,
    output,
    ended,
    line: (pattern) =>
      new Promise<string>((resolve, reject) => {
        const printed = `${output.stdout}${output.stderr}`.split('\n').find((l) => pattern.test(l))
        if (printed !== undefined) return resolve(printed)
        waiting.add({ pattern, resolve })
        void ended.then(() =>
          reject(
            new Error(`serve ended before printing ${pattern}:\n${output.stdout}${output.stderr}`),
          ),
        )
      }),
    async stop(signal = 'SIGTERM') {
      if (done) return
      try {
        process.kill(-child.pid!, signal)
      } catch {
        // The group is gone already.
      }
      await ended
    },
  }
}

/** A `serve` that listens, with what it printed at start. */
export interface ServeProcess extends RunningServe {
  /** `listening on <url>` */
  url: string
  /** `control token: <token>` */
  controlToken: string
  /** Every `secret: <key>` line. */
  secrets: string[]
}

/**
 * Starts `serve` with `args` and resolves once it listens, reading the stable lines it prints
 * (see the README); rejects with what it printed if it ends first.
 */
export async function spawnServe(
  args: readonly string[] = [],
  options: RunServeOptions = {},
): Promise<ServeProcess> {
  const running = runServe(args, options)
  // The control token is printed after the URL and the secrets: the banner is whole then.
  const [listening, control] = await Promise.all([
    running.line(/^listening on http:\/\/\S+$/),
    running.line(/^control token: \S+$/),
  ])
  return {
    ...running,
    url: listening.slice('listening on '.length),
    controlToken: control.slice('control token: '.length),
    secrets: running.output.stdout
      .split('\n')
      .flatMap((line) => /^secret: (\S+)$/.exec(line)?.[1] ?? []),
  }
}
