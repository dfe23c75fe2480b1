import { request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { configure, start, type Running } from './serve-cli'

/**
 * Where `serve`'s deploy links point (decision 051): the address clients call it by — the port
 * `--port 0` chose, the Host they sent, a hosted account's `/a/<id>` — unless `--base-url` names it.
 */
const SECRET = 'links-secret-key-0001'
const CONTROL = 'links-control-token-0001'
let running: Running | undefined

afterEach(async () => {
  await running?.stop()
  running = undefined
})

async function serve(...flags: string[]): Promise<Running> {
  const args = ['--port', '0', '--service-name', 'proc', '--secret', SECRET]
  running = await start(configure([...args, '--control-token', CONTROL, ...flags]))
  return running
}

const GREET = JSON.stringify([
  ['$$', 'name', ['%%', 'greet']],
  ['$$', 'proc', ['{}', ['()', 'type.string.upcase']]],
])

const headers = (secret: string) => ({
  authorization: `Bearer ${secret}`,
  'content-type': 'application/vnd.proc+json',
  accept: 'application/json',
})

/** `proc.deploy` of a procedure named `greet` at `baseUrl`: the link it answers. */
async function deployAt(baseUrl: string, secret = SECRET): Promise<unknown> {
  const response = await fetch(`${baseUrl}/proc/deploy`, {
    method: 'POST',
    headers: headers(secret),
    body: GREET,
  })
  expect(response.status).toBe(200)
  return response.json()
}

/** The same through `node:http`, with a Host header of our own (Fetch sets its own). */
function deployWithHost(url: string, host: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const sent = request(`${url}/proc/deploy`, {
      method: 'POST',
      headers: { ...headers(SECRET), host },
    })
    sent.on('error', reject)
    sent.on('response', (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (text += chunk))
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }))
    })
    sent.end(GREET)
  })
}

describe('deploy links on serve', () => {
  it('name the port --port 0 chose', async () => {
    const { url } = await serve()
    const { port } = new URL(url)
    expect(Number(port)).toBeGreaterThan(0)
    expect(await deployAt(url)).toBe(`127.0.0.1:${port}/lib/greet:dev`)
  })

  it('name the host the client called it by', async () => {
    const { url } = await serve('--allowed-host', 'proc.test')
    expect(await deployWithHost(url, 'proc.test:8080')).toEqual({
      status: 200,
      body: 'proc.test:8080/lib/greet:dev',
    })
  })

  it('name --base-url when it is given, whatever the request says', async () => {
    const { url } = await serve('--base-url', 'https://proc.run')
    expect(await deployAt(url)).toBe('proc.run/lib/greet:dev')
  })

  it("name a hosted account's own address, the one POST /_accounts answers", async () => {
    const { url } = await serve()
    const made = await fetch(`${url}/_accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CONTROL}` },
    })
    expect(made.status).toBe(201)
    const account = (await made.json()) as { baseUrl: string; secret: string }
    expect(account.baseUrl).toMatch(new RegExp(`^${url}/a/[^/]+$`))
    expect(await deployAt(account.baseUrl, account.secret)).toBe(
      `${account.baseUrl.replace('http://', '')}/lib/greet:dev`,
    )
  })
})
