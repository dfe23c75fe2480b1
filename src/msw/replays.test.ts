import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngine } from '../engine'
import { createMemoryStore } from '../storage'
import { createHandlers } from './handlers'
import { createReplayHandlers, MAX_REPLAYS } from './replays'

const BASE = 'https://replays.example.test'
const page = createEngine({ store: createMemoryStore(), baseUrl: BASE })
const server = setupServer(
  ...createReplayHandlers({ baseUrl: BASE, serviceName: 'service', exchangeLog: 10 }),
  ...createHandlers(page),
)
let pageKey = ''

beforeAll(async () => {
  pageKey = (await page.start())[0]!
  server.listen({ onUnhandledRequest: 'error' })
})
afterAll(() => server.close())

const control = async (base: string, path: string, body?: object) => {
  const response = await fetch(`${base}/_account/${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  })
  return { status: response.status, body: (await response.json()) as unknown }
}
const secrets = async (base: string) =>
  ((await control(base, 'secrets')).body as Array<{ key: string }>).map((secret) => secret.key)

describe('throwaway accounts below the base URL', () => {
  it('gives each id an account of its own, started with a secret, apart from the page’s', async () => {
    const one = `${BASE}/_replay/one`
    const [key] = await secrets(one)
    expect(key).toBeTruthy()
    expect(key).not.toBe(pageKey)
    const ping = await fetch(`${one}/core/ping`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
    })
    expect([ping.status, await ping.text()]).toEqual([200, 'true'])
    // The page's secret is not the throwaway's, nor the other way round.
    const crossed = await fetch(`${one}/core/ping`, {
      method: 'POST',
      headers: { authorization: `Bearer ${pageKey}` },
    })
    expect(crossed.status).toBe(401)

    await fetch(`${one}/keyv/set?key=k&value=v`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
    })
    expect((await control(one, 'buckets')).body).toEqual([{ bucket: 'default', keys: 1 }])
    expect((await control(BASE, 'buckets')).body).toEqual([])
    // A reset there brings back its own secret and touches nothing here.
    expect((await control(one, 'reset', {})).status).toBe(200)
    expect(await secrets(one)).toEqual([key])
    expect(await secrets(BASE)).toEqual([pageKey])
  })

  it(`keeps the last ${MAX_REPLAYS}, and refuses a name that is no id`, async () => {
    const first = await secrets(`${BASE}/_replay/first`)
    for (let i = 0; i < MAX_REPLAYS; i++) await secrets(`${BASE}/_replay/later-${i}`)
    // The oldest was dropped: the same id is a new account now.
    expect(await secrets(`${BASE}/_replay/first`)).not.toEqual(first)
    const bad = await fetch(`${BASE}/_replay/${'x'.repeat(65)}/_account/secrets`)
    expect(bad.status).toBe(404)
  })
})
