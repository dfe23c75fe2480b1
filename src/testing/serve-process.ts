import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

/** Starting `npm run serve` as a user does, for the tests that need a real process. */

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const children: ChildProcess[] = []

/** Runs `npm run serve -- ...args` in its own process group, so the whole tree can be killed. */
export function serve(args: string[]) {
  const child = spawn('npm', ['run', 'serve', '--', ...args], {
    cwd: ROOT,
    shell: false,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  const output = { stderr: '' }
  child.stderr!.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()))
  return { child, output }
}

/** Resolves with the server's URL once it prints `listening on <url>`. */
export function listening({ child, output }: ReturnType<typeof serve>): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no `listening on` line within 30s')), 30_000)
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const url = /^listening on (http:\/\/\S+)$/.exec(line)?.[1]
      if (!url) return
      clearTimeout(timer)
      resolve(url)
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`serve exited with ${code} before listening: ${output.stderr}`))
    })
  })
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

/** Stops every server these helpers started. */
export async function stopAll(): Promise<void> {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue
    const exited = once(child, 'exit')
    process.kill(-child.pid!, 'SIGTERM')
    await exited
  }
}
