import { execFile } from 'node:child_process'
import { once } from 'node:events'
import { request as httpRequest } from 'node:http'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listening, post, ROOT, serve, stopAll } from '../../testing/serve-process'

afterAll(stopAll)

describe('npm run serve', () => {
  const SECRET = 'smoke-secret-123'
  const CONTROL = 'control-token-0123456789'
  let proc: string
  let service: string

  beforeAll(async () => {
    ;[proc, service] = await Promise.all([
      listening(
        serve([
          '--port',
          '0',
          '--service-name',
          'proc',
          '--secret',
          SECRET,
          '--control-token',
          CONTROL,
        ]),
      ),
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

  it('serves the account control plane to the holder of the control token only', async () => {
    const open = await fetch(`${proc}/_account/export`)
    expect(open.status).toBe(401)
    expect(await open.json()).toEqual({
      error: {
        message: expect.stringMatching(/^the account control plane needs the control token/),
      },
    })
    expect(open.headers.get('access-control-allow-origin')).toBeNull()
    const wrong = await fetch(`${proc}/_account/clock`, {
      headers: { authorization: 'Bearer not-the-control-token' },
    })
    expect(wrong.status).toBe(401)
    const response = await fetch(`${proc}/_account/clock`, {
      headers: { authorization: `Bearer ${CONTROL}` },
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ now: expect.any(Number), still: false })
  })

  it('answers no other Host than its own, against DNS rebinding', async () => {
    const { port } = new URL(proc)
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/core/ping',
          method: 'POST',
          headers: { host: `rebound.example:${port}`, authorization: `Bearer ${SECRET}` },
        },
        (response) => {
          let body = ''
          response.on('data', (chunk: Buffer) => (body += chunk.toString()))
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
        },
      )
      request.on('error', reject)
      request.end()
    })
    expect(answer.status).toBe(403)
    expect(JSON.parse(answer.body)).toEqual({
      error: {
        message: `this server does not answer for host \`rebound.example:${port}'; start serve with --allowed-host rebound.example to allow it`,
      },
    })
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

  it('refuses to listen beyond this machine without a control token', async () => {
    const { child, output } = serve(['--port', '0', '--host', '0.0.0.0'])
    const [code] = (await once(child, 'exit')) as [number | null]
    expect(code).toBe(2)
    expect(output.stderr).toContain(
      'error: --host 0.0.0.0 lets other machines reach the service: give --control-token <token> too',
    )
  }, 30_000)

  it('refuses a --host or --allowed-host that is no name or address', async () => {
    for (const [flag, value, said] of [
      ['--host', 'a/b', '--host must be an address or a name to listen on'],
      ['--allowed-host', 'evil@host', '--allowed-host must be a host name or address'],
    ] as const) {
      const { child, output } = serve(['--port', '0', flag, value])
      const [code] = (await once(child, 'exit')) as [number | null]
      expect(code).toBe(2)
      expect(output.stderr).toContain(`error: ${said}`)
    }
  }, 30_000)
})
