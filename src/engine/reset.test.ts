import { describe, expect, it } from 'vitest'
import { createManualClock } from './clock'
import { createEngine } from './engine'
import { MAX_JOURNAL_BYTES } from './operator/exchange-log'
import { createMemoryStore } from '../storage/memory-store'

const BASE = 'https://reset.example.test'

function setup(options: { secrets?: string[]; strict?: boolean } = {}) {
  const engine = createEngine({
    store: createMemoryStore(),
    clock: createManualClock(),
    baseUrl: BASE,
    limits: { rateLimit: { limit: 3, windowSeconds: 60, enforce: true } },
    exchangeLog: 10,
    ...options,
  })
  const post = (path: string, token: string, body = '', type = 'text/plain') =>
    engine.handle(
      new Request(`${BASE}/${path}`, {
        method: 'POST',
        headers: { authorization: `bearer ${token}`, 'content-type': type },
        body,
      }),
    )
  const control = async (path: string, body?: unknown) => {
    const response = await engine.handle(
      new Request(`${BASE}/_account/${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    )
    return response.json() as Promise<unknown>
  }
  return { engine, post, control }
}

describe('one reset', () => {
  it('brings back the state the service started in, the same secret keys included', async () => {
    const { engine, post, control } = setup({ secrets: ['starting-secret-1', 'starting-secret-2'] })
    expect(await engine.start()).toEqual(['starting-secret-1', 'starting-secret-2'])
    const startedAt = await engine.account.now()

    await post('keyv/set?bucket=b&key=k', 'starting-secret-1', '"v"', 'application/json')
    await control('clock', { advance: 3600 })
    const secrets = (await control('secrets')) as Array<{ id: string; key: string }>
    const first = secrets.find((secret) => secret.key === 'starting-secret-1')
    await control(`secrets/${first!.id}/roll`, {})
    expect((await post('core/ping', 'starting-secret-1')).status).toBe(401)
    await control('faults', { status: 500, count: 5 })
    await control('strict', { enabled: true })
    await control('rate-limit', { enforce: true, limit: 100 })

    // The control plane and the Node API mean the same thing by it.
    for (const reset of [() => control('reset', {}), () => engine.reset()]) {
      await reset()
      const keys = ((await control('secrets')) as Array<{ key: string }>).map((s) => s.key)
      expect(keys.sort()).toEqual(['starting-secret-1', 'starting-secret-2'])
      expect(await engine.account.now()).toBe(startedAt)
      expect(await control('faults')).toEqual([])
      expect(await control('strict')).toEqual({ enabled: false, requests: [] })
      expect(await control('rate-limit')).toEqual({ enforce: true, limit: 3, windowSeconds: 60 })
      expect(await control('exchanges')).toEqual({
        capacity: 10,
        maxBytes: MAX_JOURNAL_BYTES,
        exchanges: [],
      })
      const got = await post('keyv/get?bucket=b&key=k', 'starting-secret-2', '', 'application/json')
      expect(await got.text()).toBe('null')
      // The window is empty: the limit of 3 counts from the reset (keyv.get was the first).
      const statuses = []
      for (let i = 0; i < 2; i++)
        statuses.push((await post('core/ping', 'starting-secret-1')).status)
      expect(statuses).toEqual([200, 200])
      expect((await post('core/ping', 'starting-secret-1')).status).toBe(429)
    }
  })

  it('keeps strict mode on after a reset when the service was started strict', async () => {
    const { engine, control } = setup({ strict: true })
    await engine.start()
    await control('strict', { enabled: false })
    await engine.reset()
    expect(await control('strict')).toMatchObject({ enabled: true })
  })

  it('starts with the live secrets the store holds, or makes one, and keeps them on reset', async () => {
    const { engine } = setup()
    const made = await engine.start()
    expect(made).toHaveLength(1)
    expect(await engine.start()).toEqual(made)
    await engine.reset()
    expect((await engine.account.listSecrets()).map((s) => s.key)).toEqual(made)
  })
})
