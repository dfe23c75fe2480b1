import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkReceived, startService, type Service } from './index'

/** Calls an endpoint with `token`; `body` is sent as tuples, the answer read as text. */
async function call(service: Service, token: string, name: string, body: unknown[] = []) {
  const response = await fetch(`${service.baseUrl}/${name.split('.').join('/')}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `application/vnd.${service.serviceName}+json`,
      accept: 'text/plain',
    },
    body: JSON.stringify(body),
  })
  return { status: response.status, text: await response.text() }
}

async function authorize(service: Service, token: string, abilities: string[]) {
  const { status, text } = await call(service, token, 'auth.create', [
    ['$$', 'abilities', abilities],
  ])
  expect(status).toBe(200)
  return text
}

describe('startService', () => {
  let service: Service
  beforeAll(async () => {
    service = await startService({ secrets: ['first-secret-key', 'second-secret-key'] })
  })
  afterAll(() => service.stop())

  it('starts with the configured secrets, the first one as `secret`', async () => {
    expect(service.secret).toBe('first-secret-key')
    const keys = (await service.listSecrets()).map((secret) => secret.key)
    expect(keys.sort()).toEqual(['first-secret-key', 'second-secret-key'])
    expect(await call(service, service.secret, 'core.ping')).toEqual({ status: 200, text: 'true' })
  })

  it('creates authorizations that reach only their abilities', async () => {
    const token = await authorize(service, service.secret, ['type'])
    expect(token).toMatch(/\S+\.\S+/)
    const reversed = await call(service, token, 'type.string.reverse', [['>>', 'abc']])
    expect(reversed).toEqual({ status: 200, text: 'cba' })
    const refused = await call(service, token, 'keyv.get', [
      ['$$', 'bucket', 'b'],
      ['$$', 'key', 'k'],
    ])
    expect(refused).toEqual({
      status: 401,
      text: "authorization does not have the ability to access service `keyv.get'",
    })
  })

  it('keeps a secret rolled in the future alive until then, with its authorizations', async () => {
    const old = await service.createSecret()
    const token = await authorize(service, old.key, ['core.ping'])
    const replacement = await service.rollSecret(old.id, (await service.now()) + 60)
    for (const key of [old.key, token, replacement.key]) {
      expect((await call(service, key, 'core.ping')).status).toBe(200)
    }
    await service.advanceClock(61)
    expect(await call(service, old.key, 'core.ping')).toMatchObject({ status: 401 })
    expect(await call(service, token, 'core.ping')).toMatchObject({ status: 401 })
    expect(await call(service, replacement.key, 'core.ping')).toMatchObject({ status: 200 })
  })

  it('resets the data but keeps the configured secrets', async () => {
    const set = [
      ['$$', 'bucket', 'users'],
      ['$$', 'key', 'alice'],
      ['$$', 'value', 1],
    ]
    expect((await call(service, service.secret, 'keyv.set', set)).text).toBe('true')
    const extra = await service.createSecret()
    await service.reset()
    const get = set.slice(0, 2)
    expect(await call(service, service.secret, 'keyv.get', get)).toEqual({
      status: 200,
      text: 'null',
    })
    const keys = (await service.listSecrets()).map((secret) => secret.key)
    expect(keys.sort()).toEqual(['first-secret-key', 'second-secret-key'])
    expect((await call(service, extra.key, 'core.ping')).status).toBe(401)
  })
})

describe('two services side by side', () => {
  let a: Service
  let b: Service
  beforeAll(async () => {
    a = await startService({ baseUrl: 'https://a.service.test', serviceName: 'alpha' })
    b = await startService({ baseUrl: 'https://b.service.test/api', serviceName: 'beta' })
  })
  afterAll(() => b.stop())

  it('answer each at its own base URL, with its own account', async () => {
    expect(a.secret).not.toBe(b.secret)
    expect((await call(a, a.secret, 'core.ping')).text).toBe('true')
    expect((await call(b, b.secret, 'core.ping')).text).toBe('true')
    expect(await call(b, a.secret, 'core.ping')).toEqual({
      status: 401,
      text: 'authorization is invalid',
    })
    expect((await call(a, a.secret, 'foo.bar')).text).toBe("undefined alpha `foo.bar'")
    expect((await call(b, b.secret, 'foo.bar')).text).toBe("undefined beta `foo.bar'")
    const entry = [
      ['$$', 'bucket', 'shared'],
      ['$$', 'key', 'k'],
    ]
    await call(a, a.secret, 'keyv.set', [...entry, ['$$', 'value', 'from a']])
    expect((await call(b, b.secret, 'keyv.get', entry)).text).toBe('null')
  })

  it('keep their handlers through resetHandlers, and one stops without the other', async () => {
    a.server.resetHandlers()
    expect((await call(a, a.secret, 'core.ping')).text).toBe('true')
    a.stop()
    // `.test` never resolves: a network error shows nothing answers `a` any more.
    await expect(call(a, a.secret, 'core.ping')).rejects.toThrow()
    expect((await call(b, b.secret, 'core.ping')).text).toBe('true')
  })
})

describe('with a server of your own', () => {
  const server = setupServer(http.get('https://own.test/hello', () => HttpResponse.text('mine')))
  let service: Service
  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' })
    service = await startService({ server, baseUrl: 'https://joined.service.test' })
  })
  afterAll(() => server.close())

  it('adds its handlers next to yours and leaves your server running on stop', async () => {
    expect(service.server).toBe(server)
    expect((await call(service, service.secret, 'core.ping')).text).toBe('true')
    expect(await (await fetch('https://own.test/hello')).text()).toBe('mine')
    service.stop()
    expect((await call(service, service.secret, 'core.ping')).text).toBe('true')
  })
})

describe('a service under test', () => {
  let service: Service
  beforeAll(async () => {
    service = await startService({ baseUrl: 'https://journal.example.test', serviceName: 'proc' })
  })
  afterAll(() => service.stop())

  it('mints authorizations with ttl and insecure abilities', async () => {
    const token = await service.authorize(['type.string'], { ttl: 60 })
    expect(await call(service, token, 'type.string.reverse', [['>>', 'ab']])).toEqual({
      status: 200,
      text: 'ba',
    })
    await expect(service.authorize(['auth.create'])).rejects.toThrow(/^auth\.create answered 400: /)
    const minter = await service.authorize(['auth.create'], { insecure: true })
    const child = await service.authorize(['core'], { token: minter })
    expect((await call(service, child, 'core.ping')).text).toBe('true')
  })

  it('keeps a journal of what arrived, to pick from and assert on', async () => {
    service.clearRequests()
    const token = await service.authorize(['keyv.get'])
    await call(service, token, 'keyv.get', [
      ['$$', 'bucket', 'users'],
      ['$$', 'key', 'alice'],
    ])
    await call(service, token, 'keyv.set', [
      ['$$', 'key', 'bob'],
      ['$$', 'value', 1],
    ])
    expect(service.requests().map((r) => [r.endpoint, r.status, r.token])).toEqual([
      ['auth.create', 200, 'secret'],
      ['keyv.get', 200, 'authorization'],
      ['keyv.set', 401, 'authorization'],
    ])
    const [refused] = service.requests({ endpoint: 'keyv.set', status: 401 })
    expect(refused).toMatchObject({
      format: 'tuples',
      args: { key: 'bob', value: 1 },
      abilities: ['keyv.get'],
      message: "authorization does not have the ability to access proc `keyv.set'",
    })
    expect(service.requests({ args: { bucket: 'users' } })).toHaveLength(1)

    const missing = checkReceived(service.requests(), 'keyv.set', { status: 200, times: 1 })
    expect(missing.pass).toBe(false)
    expect(missing.message.split('\n').slice(0, 5)).toEqual([
      'expected 1 request(s) to keyv.set with status 200, received 0.',
      'Requests that did arrive, nearest first (3 of 3):',
      `  #${refused!.id} keyv.set → 401 "authorization does not have the ability to access proc \`keyv.set'" (authorization, tuples) args {"key":"bob","value":1}  ← status differs`,
      '      status: expected 200, received 401',
      "      it would have passed with: an authorization holding `keyv.set' (or `keyv') would have been let in",
    ])
    expect(refused!.counterfactual).toMatchObject({ change: 'add_ability', ability: 'keyv.set' })
    // The message names the exchange to go back to before, and the rewind goes there.
    expect(missing.message.split('\n').at(-1)).toBe(
      `To stand just before #${refused!.id} and try again: service.rewind(${refused!.id}) (POST /_account/rewind {"before": ${refused!.id}}).`,
    )
    expect(checkReceived(service.requests(), 'keyv.get', { times: 1 }).pass).toBe(true)
    const branch = await service.rewind(refused!, 'without the refusal')
    expect(branch).toMatchObject({ name: 'without the refusal', current: true })
    expect(service.requests().map((r) => r.endpoint)).toEqual(['auth.create', 'keyv.get'])
    expect((await service.branches()).branches.map((b) => b.current)).toEqual([false, true])
    await service.switchBranch('main')
    expect(service.requests()).toHaveLength(3)
  })

  it('meets faults it is given, until cleared; reset clears them and the journal', async () => {
    const rule = service.fault({ status: 503, endpoint: 'core', count: null })
    expect(rule).toMatchObject({ kind: 'status', status: 503, count: null, id: expect.any(String) })
    expect((await call(service, service.secret, 'core.ping')).status).toBe(503)
    expect((await call(service, service.secret, 'core.ping')).status).toBe(503)
    expect(service.requests({ fault: true })).toHaveLength(2)
    expect(() => service.fault({ status: 404 as 500 })).toThrow(/^`status' must be/)
    await service.reset()
    expect((await call(service, service.secret, 'core.ping')).status).toBe(200)
    expect(service.requests().map((r) => r.endpoint)).toEqual(['core.ping'])
    service.fault({ kind: 'network' })
    await expect(call(service, service.secret, 'core.ping')).rejects.toThrow(TypeError)
    service.fault({ status: 500 })
    service.clearFaults()
    expect((await call(service, service.secret, 'core.ping')).status).toBe(200)
  })

  it('meets every kind of fault with the journal on, and journals each with its kind', async () => {
    await service.reset()
    const echo = () =>
      fetch(`${service.baseUrl}/core/echo`, {
        method: 'POST',
        headers: { authorization: `Bearer ${service.secret}`, 'content-type': 'text/plain' },
        body: 'a value long enough to be cut in half',
      })
    /** What the client meets: the status and `x-fault`, then the body or why it broke off. */
    const met = async () => {
      let response: Response
      try {
        response = await echo()
      } catch (error) {
        return `no answer: ${(error as Error).name}`
      }
      const head = `${response.status} ${response.headers.get('x-fault')}`
      try {
        return `${head} ${await response.text()}`
      } catch (error) {
        return `${head}, then the body broke off: ${(error as Error).name}`
      }
    }
    service.fault({ kind: 'reset' })
    expect(await met()).toBe('200 reset, then the body broke off: TypeError')
    service.fault({ kind: 'truncate' })
    expect(await met()).toBe('200 truncate a value long enoug')
    service.fault({ kind: 'delay', delayMs: 20 })
    expect(await met()).toBe('200 delay a value long enough to be cut in half')
    service.fault({ kind: 'network' })
    expect(await met()).toBe('no answer: TypeError')
    service.fault({ kind: 'hang', delayMs: 20 })
    expect(await met()).toBe('no answer: TypeError')
    service.fault({ status: 502 })
    expect(await met()).toMatch(/^502 502 bad gateway/)
    expect(service.requests().map((r) => [r.status, r.fault])).toEqual([
      [200, 'reset'],
      [200, 'truncate'],
      [200, 'delay'],
      [0, 'network'],
      [0, 'hang'],
      [502, '502'],
    ])
    expect(service.requests({ fault: true })).toHaveLength(6)
    expect(service.requests()[0]!.exchange.response.body).toMatchObject({
      data: 'a value long enoug',
      bytes: 18,
    })
  })
})
