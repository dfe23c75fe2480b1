import { encode } from '@msgpack/msgpack'
import { afterEach, describe, expect, it } from 'vitest'
import { startService, type Service } from '../../node'
import { listExchanges } from './api'
import { changesProcedures, mintedIn } from './minted'

let service: Service | undefined
afterEach(() => service?.stop())

describe('mintedIn', () => {
  it('reads the token of every successful auth.create, whatever format answered it', async () => {
    service = await startService({ baseUrl: 'https://minted.example.test', journal: 20 })
    const { baseUrl, secret } = service
    const vnd = `application/vnd.${service.serviceName}`
    const args = [['$$', 'abilities', ['type']]]
    const send = (type: string, body: BodyInit, accept?: string, query = '') =>
      fetch(`${baseUrl}/auth/create${query}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${secret}`,
          'content-type': type,
          ...(accept ? { accept } : {}),
        },
        body,
      })
    const answers = [
      await send('text/plain', '', undefined, '?abilities=type'),
      await send('application/json', '', undefined, '?abilities=type'),
      await send(`${vnd}+json`, JSON.stringify(args)),
      await send(`${vnd}+msgpack`, new Uint8Array(encode(args))),
      // Refused: no token to remember.
      await send(`${vnd}+json`, JSON.stringify([['$$', 'abilities', ['auth']]])),
    ]
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 400])
    const { exchanges } = await listExchanges(baseUrl, 0)
    const tokens = mintedIn(exchanges)
    expect(tokens).toHaveLength(4)
    for (const token of tokens) expect(token).toMatch(/^[\w-]+\.[\w-]+$/)
    expect(new Set(tokens).size).toBe(4)
    expect(changesProcedures(exchanges, service.serviceName)).toBe(false)
  })
})
