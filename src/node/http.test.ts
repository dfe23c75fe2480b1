import { describe, expect, it } from 'vitest'
import { createEngine } from '../engine'
import { createMemoryStore } from '../storage'
import { listen } from './http'

describe('listen', () => {
  it('serves the engine on a free port and closes', async () => {
    const engine = createEngine({ store: createMemoryStore(), baseUrl: 'http://127.0.0.1' })
    const { key } = await engine.account.createSecret()
    const server = await listen(engine, { port: 0 })
    expect(server.port).toBeGreaterThan(0)
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`)

    const ping = () =>
      fetch(`${server.url}/core/ping`, {
        method: 'POST',
        headers: { authorization: `bearer ${key}` },
      })
    expect(await (await ping()).text()).toBe('true')
    expect(await (await fetch(`${server.url}/_account/clock`)).json()).toEqual({
      now: expect.any(Number),
    })

    await server.close()
    await expect(ping()).rejects.toThrow()
  })

  it('rejects when the port is taken', async () => {
    const engine = createEngine({ store: createMemoryStore(), baseUrl: 'http://127.0.0.1' })
    const first = await listen(engine, { port: 0 })
    await expect(listen(engine, { port: first.port })).rejects.toThrow(/EADDRINUSE/)
    await first.close()
  })
})
