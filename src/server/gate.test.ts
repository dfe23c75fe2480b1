import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listening, serve, stopAll } from '../testing/serve-process'

afterAll(stopAll)

const SECRET = 'gate-secret-0123456789'
const CONTROL = 'gate-control-0123456789'

/** Every route of the account control plane, as the engine serves it. */
const ROUTES: Array<[method: 'GET' | 'POST', path: string, body?: object]> = [
  ['GET', 'secrets'],
  ['POST', 'secrets', { key: 'planted-secret-0123456789' }],
  ['POST', 'secrets/s1/roll', {}],
  ['GET', 'clock'],
  ['POST', 'clock', { advance: 3600 }],
  ['POST', 'reset', {}],
  ['GET', 'faults'],
  ['POST', 'faults', { status: 500, count: 100 }],
  ['POST', 'faults/clear', {}],
  ['GET', 'rate-limit'],
  ['POST', 'rate-limit', { enforce: true, limit: 1 }],
  ['GET', 'strict'],
  ['POST', 'strict', { enabled: true }],
  ['GET', 'export'],
  ['POST', 'import', { meta: {}, secrets: [], keyv: [], procs: [] }],
  ['POST', 'inspect', { token: SECRET }],
  ['GET', 'endpoints'],
  ['GET', 'procedures'],
  ['GET', 'buckets'],
  ['GET', 'exchanges'],
  ['POST', 'exchanges/clear', {}],
]

/** Spellings of `/_account/<route>` that some reader could take for the control plane. */
const FORMS = [
  (route: string) => `/_account/${route}`,
  (route: string) => `//_account/${route}`,
  (route: string) => `///_account/${route}`,
  (route: string) => `/./_account/${route}`,
  (route: string) => `/x/../_account/${route}`,
  (route: string) => `/%5Faccount/${route}`,
  (route: string) => `/_account%2F${route}`,
  (route: string) => `/_account//${route}`,
  (route: string) => `/_account/${route}/`,
  (route: string) => `/_account/./${route}`,
]

interface Answer {
  status: number
  body: string
}

/** Sends the path exactly as written (no URL normalisation on the way). */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: object,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { ...headers, connection: 'close' } },
      (response) => {
        let text = ''
        response.on('data', (chunk: Buffer) => (text += chunk.toString()))
        response.on('end', () => resolve({ status: response.statusCode!, body: text }))
      },
    )
    request.on('error', reject)
    if (body) {
      request.setHeader('content-type', 'application/json')
      request.end(JSON.stringify(body))
    } else request.end()
  })
}

describe.each([
  ['127.0.0.1', ['--host', '127.0.0.1']],
  ['0.0.0.0', ['--host', '0.0.0.0']],
])('the control token of serve --host %s', (_name, hostArgs) => {
  let port: number
  beforeAll(async () => {
    const url = await listening(
      serve(['--port', '0', ...hostArgs, '--secret', SECRET, '--control-token', CONTROL]),
    )
    port = Number(new URL(url).port)
  }, 35_000)

  const control = (method: string, path: string, body?: object) =>
    send(port, method, `/_account/${path}`, { authorization: `bearer ${CONTROL}` }, body)

  it('holds on every spelling of every route', async () => {
    const before = await control('GET', 'export')
    expect(before.status).toBe(200)
    for (const [method, route, body] of ROUTES) {
      for (const form of FORMS) {
        const path = form(route)
        for (const authorization of [undefined, `bearer ${SECRET}`, `bearer ${CONTROL} junk`]) {
          const answer = await send(
            port,
            method,
            path,
            authorization ? { authorization } : {},
            body,
          )
          const where = `${method} ${path} with ${authorization ?? 'no authorization'}`
          expect([400, 401, 404], where).toContain(answer.status)
          expect(answer.body, where).not.toContain(SECRET)
        }
      }
    }
    // Nothing any of those requests tried took effect.
    const after = await control('GET', 'export')
    const { exportedAt: _then, ...was } = JSON.parse(before.body)
    const { exportedAt: _now, ...is } = JSON.parse(after.body)
    expect(is).toEqual(was)
    expect(JSON.parse((await control('GET', 'faults')).body)).toEqual([])
    expect(JSON.parse((await control('GET', 'strict')).body).enabled).toBe(false)
  }, 120_000)

  it('lets the control token through on the canonical path and refuses the others with 400', async () => {
    expect((await control('GET', 'secrets')).status).toBe(200)
    const doubled = await send(port, 'GET', '//_account/secrets', {
      authorization: `bearer ${CONTROL}`,
    })
    expect(doubled.status).toBe(400)
    expect(doubled.body).toMatch(
      /^the path `\/\/_account\/secrets' is ambiguous: it has an empty segment/,
    )
  })
})
