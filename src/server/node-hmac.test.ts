import { describe, expect, it, vi } from 'vitest'
import { createEngine, createManualClock } from '../engine'
import { webCryptoHmac } from '../engine/auth/hmac'
import { createMemoryStore } from '../storage'
import { nodeHmac } from './node-hmac'
import { startService } from '../node'

const call = (engine: ReturnType<typeof createEngine>, path: string, token: string) =>
  engine.handle(
    new Request(`https://api.service.test/${path}`, {
      method: 'POST',
      headers: { authorization: `bearer ${token}`, accept: 'text/plain' },
    }),
  )

describe('node:crypto’s HMAC for the engine', () => {
  it('computes what WebCrypto computes, synchronously', async () => {
    const key = crypto.getRandomValues(new Uint8Array(32))
    const data = new TextEncoder().encode('authorization:eyJzIjoic2VjXzEifQ')
    const sync = (await nodeHmac(key))(data)
    expect(sync).toBeInstanceOf(Uint8Array)
    expect([...(sync as Uint8Array)]).toEqual([...(await (await webCryptoHmac(key))(data))])
  })

  it('verifies the tokens and cursors an engine on WebCrypto signed over the same store', async () => {
    const store = createMemoryStore()
    const clock = createManualClock()
    const before = createEngine({ store, clock })
    const { key } = await before.account.createSecret()
    const token = await (await call(before, 'auth/create?abilities=keyv', key)).text()
    for (const k of ['a', 'b', 'c']) await call(before, `keyv/set?key=${k}&value=1`, key)
    const page = await call(before, 'keyv/scan?count=1', key)
    const cursor = page.headers.get('x-cursor')!

    const after = createEngine({ store, clock, hmac: nodeHmac })
    expect((await call(after, 'keyv/get?key=a', token)).status).toBe(200)
    expect(await (await call(after, 'core/ping', key)).text()).toBe('true')
    const next = await call(after, `keyv/scan?count=1&cursor=${cursor}`, token)
    expect(await next.text()).toBe('["b"]')
  })

  it('is what the Node API gives its engine: no WebCrypto signature per call', async () => {
    const service = await startService()
    const sign = vi.spyOn(crypto.subtle, 'sign')
    try {
      const token = await service.authorize(['core'])
      expect(await (await call(service.engine, 'core/ping', token)).text()).toBe('true')
      expect(await (await call(service.engine, 'core/ping', service.secret)).text()).toBe('true')
      expect(sign).not.toHaveBeenCalled()
    } finally {
      sign.mockRestore()
      service.stop()
    }
  })
})
