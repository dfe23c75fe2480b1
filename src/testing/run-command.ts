import { spawn } from 'node:child_process'

/** This process's environment without what npm and Vitest set for themselves. */
export function cleanEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(npm_|VITEST|NODE_OPTIONS$|INIT_CWD$|NODE_ENV$|TEST$)/i.test(name),
    ),
  )
  return { ...env, CI: '1', NO_COLOR: '1', FORCE_COLOR: '0', ...extra }
}

export interface Ran {
  code: number | null
  stdout: string
  stderr: string
  seconds: number
}

/** Runs a command to its end in a clean environment; never throws, so a test can show what it printed. */
export function run(
  command: string,
  args: string[],
  cwd: string,
  extra: Record<string, string> = {},
): Promise<Ran> {
  const started = performance.now()
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: cleanEnvironment(extra) })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('close', (code) =>
      resolve({ code, stdout, stderr, seconds: (performance.now() - started) / 1000 }),
    )
  })
}

/** What a command printed, for a failing assertion's message. */
export const shown = ({ code, stdout, stderr }: Ran) => `exit ${code}\n${stdout}\n${stderr}`
