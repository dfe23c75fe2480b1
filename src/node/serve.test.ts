import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const children: ChildProcess[] = []

/** Runs `npm run serve -- ...args` in its own process group, so the whole tree can be killed. */
function serve(args: string[]) {
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
function listening({ child, output }: ReturnType<typeof serve>): Promise<string> {
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

function post(url: string, token: string, body: string, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...headers },
    body,
  })
}

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue
    const exited = once(child, 'exit')
    process.kill(-child.pid!, 'SIGTERM')
    await exited
  }
})

describe('npm run serve', () => {
  const SECRET = 'smoke-secret-123'
  let proc: string
  let service: string

  beforeAll(async () => {
    ;[proc, service] = await Promise.all([
      listening(serve(['--port', '0', '--service-name', 'proc', '--secret', SECRET])),
      listening(serve(['--port', '0', '--secret', 'walkthrough-secret'])),
    ])
  }, 35_000)

  it('answers core.ping over HTTP', async () => {
    const response = await post(`${proc}/core/ping`, SECRET, '')
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('true')
  })

  it('speaks its own service name', async () => {
    const type = 'application/vnd.proc+json'
    const response = await post(`${proc}/type/string/reverse`, SECRET, '[[">>","foo"]]', {
      'content-type': type,
    })
    expect(response.headers.get('content-type')).toBe(type)
    expect(await response.json()).toEqual([['<<', 'oof']])

    const created = await post(`${proc}/auth/create`, SECRET, '[["$$","abilities",["core"]]]', {
      'content-type': type,
      accept: 'text/plain',
    })
    const refused = await post(`${proc}/keyv/get?bucket=b&key=k`, await created.text(), '')
    expect(refused.status).toBe(401)
    expect(await refused.text()).toBe(
      "authorization does not have the ability to access proc `keyv.get'",
    )
  })

  it('serves the account control plane', async () => {
    const response = await fetch(`${proc}/_account/clock`)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ now: expect.any(Number) })
  })

  it('runs the curl walkthrough', async () => {
    const { stdout } = await promisify(execFile)('bash', ['docs/curl-walkthrough.sh'], {
      cwd: ROOT,
      env: { ...process.env, BASE: service, SECRET: 'walkthrough-secret' },
    })
    expect(stdout).toContain('olleh')
    expect(stdout).toContain("authorization does not have the ability to access service `keyv.get'")
    expect(stdout).toMatch(/^401$/m)
  }, 30_000)
})

describe('npm run serve with a bad flag', () => {
  it('exits with code 2 and says why', async () => {
    const { child, output } = serve(['--port', 'eighty'])
    const [code] = (await once(child, 'exit')) as [number | null]
    expect(code).toBe(2)
    expect(output.stderr).toContain('error: --port must be a number from 0 to 65535, not "eighty"')
  }, 30_000)
})
