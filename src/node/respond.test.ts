import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type Service } from '.'
import { remoteService } from '../kit/remote'
import { listen, type Listener } from '../server/http'
import { createEngine } from '../engine'
import { createMemoryStore } from '../storage/memory-store'

const BASE = 'https://respond.example.test'

/** A client's call, as plain text in, the answer's head and body out. */
async function call(baseUrl: string, token: string, path: string) {
  const response = await fetch(`${baseUrl}/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
    body: 'abc',
  })
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    fault: response.headers.get('x-fault'),
    extra: response.headers.get('x-extra'),
    body: await response.text(),
  }
}

describe('service.respond: an answer given in advance, as msw’s server.use gives one', () => {
  let service: Service
  beforeAll(async () => {
    service = await startService({ baseUrl: BASE })
  })
  afterAll(() => service.stop())

  it('answers every matching call until cleared, or once, and journals each', async () => {
    service.respond('type.string', { status: 200, body: 'canned', headers: { 'X-Extra': 'yes' } })
    expect(await call(BASE, service.secret, 'type/string/reverse')).toEqual({
      status: 200,
      type: 'text/plain; charset=utf-8',
      fault: 'respond',
      extra: 'yes',
      body: 'canned',
    })
    // The whole package, and every call: not used up.
    expect((await call(BASE, service.secret, 'type/string/upcase')).body).toBe('canned')
    // Another endpoint gets its real answer.
    expect((await call(BASE, service.secret, 'core/echo')).body).toBe('abc')
    service.clearFaults()
    expect((await call(BASE, service.secret, 'type/string/reverse')).body).toBe('cba')

    const once = service.respond(
      'core.echo',
      { status: 500, body: { error: { message: 'down' } } },
      { once: true },
    )
    expect(once).toMatchObject({ kind: 'respond', count: 1, endpoint: 'core.echo' })
    expect(await call(BASE, service.secret, 'core/echo')).toMatchObject({
      status: 500,
      type: 'application/json',
      body: '{"error":{"message":"down"}}',
    })
    expect((await call(BASE, service.secret, 'core/echo')).body).toBe('abc')
    expect(
      service.requests({ fault: 'respond' }).map((request) => [request.endpoint, request.status]),
    ).toEqual([
      ['type.string.reverse', 200],
      ['type.string.upcase', 200],
      ['core.echo', 500],
    ])
  })

  it('meets only the token it names, and is undone with the frame it was given in', async () => {
    const other = await service.authorize(['core'])
    const frame = await service.checkpoint()
    service.respond('core.echo', { body: 'for the secret' }, { token: service.secret })
    expect((await call(BASE, other, 'core/echo')).body).toBe('abc')
    expect((await call(BASE, service.secret, 'core/echo')).body).toBe('for the secret')
    await service.restore(frame.id)
    expect((await call(BASE, service.secret, 'core/echo')).body).toBe('abc')
    service.respond('core.echo', { body: 'gone after a reset' })
    await service.reset()
    expect((await call(BASE, service.secret, 'core/echo')).body).toBe('abc')
  })

  it('refuses an answer it cannot give, saying what is wrong', () => {
    expect(() => service.respond('core.echo', { status: 99 })).toThrow(
      "`answer.status' must be a whole number from 200 to 599",
    )
    expect(() => service.respond('core.echo', { statusCode: 200 } as never)).toThrow(
      "`answer' takes status, headers and body, not statusCode",
    )
    expect(() => service.respond('core.echo', { headers: { 'bad name': 'x' } })).toThrow(
      /answer.headers' must name headers/,
    )
    expect(() => service.fault({ kind: 'delay', delayMs: 5, answer: { body: 'x' } })).toThrow(
      "a delay fault takes no `answer'; give one with kind respond",
    )
    expect(() => service.fault({ kind: 'respond' })).toThrow(/a respond rule needs an `answer'/)
  })
})

describe('respond over HTTP', () => {
  let server: Listener
  afterAll(() => server.close())

  it('is the same rule on a serve account, through the control plane', async () => {
    const engine = createEngine({ store: createMemoryStore(), baseUrl: 'http://127.0.0.1' })
    const [secret] = await engine.start()
    server = await listen(engine, { port: 0, controlToken: 'respond-control-token' })
    const remote = remoteService({
      baseUrl: server.url,
      serviceName: 'service',
      secret: secret!,
      send: (request) => fetch(request),
      controlToken: 'respond-control-token',
    })
    const rule = await remote.respond('core.ping', { status: 503, body: 'maintenance' })
    expect(rule).toMatchObject({ kind: 'respond', count: null })
    expect(await call(server.url, secret!, 'core/ping')).toMatchObject({
      status: 503,
      fault: 'respond',
      body: 'maintenance',
    })
    await remote.clearFaults(rule.id)
    expect((await call(server.url, secret!, 'core/ping')).status).toBe(200)
  })
})
