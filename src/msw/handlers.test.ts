import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngine, createManualClock, type SecretView } from '../engine'
import { createMemoryStore } from '../storage'
import { createHandlers } from './handlers'

const BASE = 'https://api.service.test'
const PREFIXED = 'https://api.example.test/v1'
const SECRET = 'handlers-test-secret'

const engine = createEngine({
  store: createMemoryStore(),
  baseUrl: BASE,
  clock: createManualClock(),
})
const prefixed = createEngine({ store: createMemoryStore(), baseUrl: PREFIXED })
const server = setupServer(...createHandlers(engine), ...createHandlers(prefixed))

beforeAll(async () => {
  await engine.account.createSecret({ key: SECRET })
  await prefixed.account.createSecret({ key: SECRET })
  server.listen({ onUnhandledRequest: 'bypass' })
})
afterAll(() => server.close())

/** POSTs `body` to an endpoint with the secret; `headers` add to (or replace) the defaults. */
function call(path: string, body?: string, headers: Record<string, string> = {}, base = BASE) {
  return fetch(`${base}/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRET}`, ...headers },
    ...(body === undefined ? {} : { body }),
  })
}

function control(path: string, body?: unknown) {
  return fetch(`${BASE}/_account/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
}

describe('createHandlers through setupServer and fetch', () => {
  it('answers core.ping with true', async () => {
    const response = await call('core/ping')
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('true')
  })

  it('reads and writes text/plain', async () => {
    const response = await call('type/string/reverse', 'hello', { 'content-type': 'text/plain' })
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await response.text()).toBe('olleh')
  })

  it('reads and writes application/json', async () => {
    const response = await call('type/string/reverse', '"hello"', {
      'content-type': 'application/json',
    })
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(await response.json()).toBe('olleh')
  })

  it('reads and writes the tuple format', async () => {
    const type = 'application/vnd.service+json'
    const response = await call('type/string/reverse', '[[">>","foo"]]', { 'content-type': type })
    expect(response.headers.get('content-type')).toBe(type)
    expect(await response.json()).toEqual([['<<', 'oof']])
  })

  it('takes arguments from the query string', async () => {
    const response = await call('type/string/truncate?length=3', 'hello')
    expect(await response.text()).toBe('hel')
  })

  it('refuses a call without a token', async () => {
    const response = await fetch(`${BASE}/core/ping`, { method: 'POST' })
    expect(response.status).toBe(401)
    expect(await response.text()).toBe('authorization is missing')
  })

  it('answers an unknown endpoint with 404', async () => {
    const response = await call('foo/bar')
    expect(response.status).toBe(404)
    expect(await response.text()).toBe("undefined service `foo.bar'")
  })

  it('answers another method with 405 and allow: POST', async () => {
    const response = await fetch(`${BASE}/core/ping`)
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('POST')
  })

  it('lets requests to other origins through to the network', async () => {
    // Nothing listens on port 1: only the real network can fail like this.
    await expect(fetch('http://127.0.0.1:1/core/ping', { method: 'POST' })).rejects.toThrow()
  })

  it('routes below a base URL with a path prefix, and leaves the rest of the origin alone', async () => {
    const inside = await call('core/ping', undefined, {}, PREFIXED)
    expect(await inside.text()).toBe('true')
    const bare = await fetch(PREFIXED, { method: 'POST' })
    expect(bare.status).toBe(404)
    expect(await bare.text()).toBe("undefined service `'")
    // `.test` never resolves: a network error shows the request was not ours to answer.
    await expect(call('core/ping', undefined, {}, 'https://api.example.test')).rejects.toThrow()
  })

  it('serves the account control plane', async () => {
    const created = (await (await control('secrets', {})).json()) as SecretView
    const { now } = (await (await control('clock')).json()) as { now: number }
    const roll = await control(`secrets/${created.id}/roll`, { at: now + 10 })
    const replacement = (await roll.json()) as SecretView
    expect(roll.status).toBe(200)

    const ping = (key: string) =>
      fetch(`${BASE}/core/ping`, { method: 'POST', headers: { authorization: `bearer ${key}` } })
    expect((await ping(created.key)).status).toBe(200)
    expect((await ping(replacement.key)).status).toBe(200)

    const advanced = await control('clock', { advance: 11 })
    expect(((await advanced.json()) as { now: number }).now).toBe(now + 11)
    expect((await ping(created.key)).status).toBe(401)
    expect((await ping(replacement.key)).status).toBe(200)
  })
})
