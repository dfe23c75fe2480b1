// The engine's own entry point: a front of one's own answers the service's calls with it, and
// the kit's root, which a client's tests use, does not carry it.
import { describe, expect, it } from 'vitest'
import * as root from 'service-playground'
import { createEngine, createManualClock, createMemoryStore } from 'service-playground/engine'

describe('service-playground/engine', () => {
  it('answers a call through a Fetch request, with the secret the engine started with', async () => {
    const engine = createEngine({
      store: createMemoryStore(),
      baseUrl: 'https://front.test',
      serviceName: 'proc',
      clock: createManualClock(),
      secrets: ['front-secret-1'],
    })
    expect(await engine.start()).toEqual(['front-secret-1'])
    const call = (token) =>
      engine.handle(
        new Request('https://front.test/type/string/reverse', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
          body: 'abc',
        }),
      )
    const answered = await call('front-secret-1')
    expect([answered.status, await answered.text()]).toEqual([200, 'cba'])
    expect((await call('front-secret-2')).status).toBe(401)
  })

  it('is not in the root, which holds what a client’s tests use', () => {
    expect(['createEngine', 'createMemoryStore'].filter((name) => name in root)).toEqual([])
    expect(typeof root.startService).toBe('function')
  })
})
