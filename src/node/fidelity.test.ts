import { decode, encode } from '@msgpack/msgpack'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngine } from '../engine'
import { fidelityCases } from '../engine/runtime/fidelity-cases'
import { createMemoryStore } from '../storage'
import { listen, type Listener } from './http'

let server: Listener
let secret: string

beforeAll(async () => {
  const engine = createEngine({
    store: createMemoryStore(),
    serviceName: 'proc',
    baseUrl: 'http://any',
  })
  secret = (await engine.account.createSecret()).key
  server = await listen(engine, { port: 0 })
})

afterAll(() => server.close())

const formats = {
  'vnd.proc+json': {
    type: 'application/vnd.proc+json',
    encode: (body: unknown[]) => JSON.stringify(body),
    decode: async (response: Response) => JSON.parse(await response.text()) as unknown,
  },
  'vnd.proc+msgpack': {
    type: 'application/vnd.proc+msgpack',
    encode: (body: unknown[]) => encode(body),
    decode: async (response: Response) => decode(new Uint8Array(await response.arrayBuffer())),
  },
}

for (const [label, format] of Object.entries(formats)) {
  describe(`over HTTP in ${label}`, () => {
    for (const c of fidelityCases) {
      it(c.title, async () => {
        const url = new URL(`${server.url}/${c.endpoint.split('.').join('/')}`)
        for (const [name, value] of Object.entries(c.query ?? {})) url.searchParams.set(name, value)
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${secret}`,
            'content-type': format.type,
            accept: format.type,
          },
          body: format.encode(c.body),
        })
        expect(response.status).toBe(c.status)
        expect(response.headers.get('content-type')).toBe(format.type)
        const [[marker, value]] = (await format.decode(response)) as [[string, unknown]]
        if (c.status === 200) return expect([marker, value]).toEqual(['<<', c.result])
        expect(marker).toBe('!!')
        const { message } = value as { message: string }
        if (typeof c.message === 'string') expect(message).toBe(c.message)
        else expect(message).toMatch(c.message!)
      })
    }
  })
}
