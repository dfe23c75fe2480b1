import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'

/** A `serve` running in a process of its own, as read from the lines it prints at start. */
export interface ServeProcess {
  /** `listening on <url>` */
  url: string
  /** `control token: <token>` */
  controlToken: string
  /** Every `secret: <key>` line. */
  secrets: string[]
  child: ChildProcess
  /** Everything it wrote to stderr so far. */
  stderr(): string
  /** Ends the whole process tree (SIGTERM to its group) and waits for it. */
  stop(signal?: NodeJS.Signals): Promise<void>
}

export interface SpawnServeOptions {
  /** How to start it; default `npx service-playground serve`. The flags follow. */
  command?: readonly string[]
  cwd?: string
  env?: NodeJS.ProcessEnv
  /** Real milliseconds to wait for it to listen; default 30 s. */
  timeoutMs?: number
}

/**
 * Starts `serve` with `args` in its own process group and resolves once it listens, with what
 * it printed (the lines are stable: see the README). Rejects with its stderr if it exits first.
 */
export async function spawnServe(
  args: readonly string[] = [],
  {
    command = ['npx', 'service-playground', 'serve'],
    cwd,
    env,
    timeoutMs = 30_000,
  }: SpawnServeOptions = {},
): Promise<ServeProcess> {
  const [program, ...rest] = command
  const child = spawn(program!, [...rest, ...args], {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const found = { url: '', controlToken: '', secrets: [] as string[] }
  const exited = once(child, 'exit')
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return
    try {
      process.kill(-child.pid!, signal)
    } catch {
      // Already gone.
    }
    await exited
  }
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop()
      reject(new Error(`serve did not print \`listening on' within ${timeoutMs} ms: ${stderr}`))
    }, timeoutMs)
    const lines = createInterface({ input: child.stdout! })
    lines.on('line', (line) => {
      const secret = /^secret: (\S+)$/.exec(line)?.[1]
      if (secret) found.secrets.push(secret)
      found.controlToken ||= /^control token: (\S+)$/.exec(line)?.[1] ?? ''
      found.url ||= /^listening on (http:\/\/\S+)$/.exec(line)?.[1] ?? ''
      // The control token is printed after the secrets; the banner is whole once it is there.
      if (found.url && found.controlToken) {
        clearTimeout(timer)
        resolve()
      }
    })
    void exited.then(([code]) => {
      clearTimeout(timer)
      reject(new Error(`serve exited with ${code} before listening: ${stderr}`))
    })
  })
  return { ...found, child, stderr: () => stderr, stop }
}
