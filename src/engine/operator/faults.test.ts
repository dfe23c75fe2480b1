import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})

const ping = () => h.call('core.ping', { accept: 'application/json' })

describe('faults on demand', () => {
  it('answers the next calls with a 429 and retry-after, then as usual', async () => {
    expect((await h.control('faults', { status: 429, count: 2, retryAfter: 7 })).status).toBe(200)
    for (let i = 0; i < 2; i++) {
      const answer = await ping()
      expect(answer.status).toBe(429)
      expect(answer.headers.get('retry-after')).toBe('7')
      expect(answer.headers.get('x-fault')).toBe('429')
      expect(answer.json()).toEqual({
        error: { message: 'rate limited (a fault injected through the control plane)' },
      })
    }
    expect([(await ping()).status, (await h.control('faults')).body]).toEqual([200, []])
  })

  it('answers 408 and 500 for one endpoint only', async () => {
    await h.control('faults', { status: 500, endpoint: 'type.string.reverse' })
    await h.control('faults', { status: 408, endpoint: 'core.echo' })
    expect((await ping()).status).toBe(200)
    expect((await h.call('type.string.reverse', { body: 'ab' })).status).toBe(500)
    expect((await h.call('type.string.reverse', { body: 'ab' })).text).toBe('ba')
    expect((await h.call('core.echo', { body: 'x' })).status).toBe(408)
  })

  it('delays a call in real time, even on a manual clock, then answers it', async () => {
    await h.control('faults', { kind: 'delay', delayMs: 150 })
    const [virtual, real] = [h.clock.now(), performance.now()]
    expect((await ping()).status).toBe(200)
    expect(performance.now() - real).toBeGreaterThanOrEqual(145)
    // The service's own clock did not move: a delay is the network's, not the service's.
    expect(h.clock.now()).toBe(virtual)
    // The older spelling of a delay alone still works.
    expect((await h.control('faults', { status: 0, delayMs: 1 })).status).toBe(200)
  })

  it('refuses a malformed rule, saying what to change', async () => {
    const bad = await h.control('faults', { status: 404 })
    expect(bad).toEqual({
      status: 400,
      body: {
        error: { message: "`status' must be 408, 429, 500, 502, 503, 504, or 0 for a delay alone" },
      },
    })
    for (const [rule, message] of [
      [{ status: 429, count: 0 }, /^`count' must be a whole number/],
      [
        { kind: 'explode' },
        /^`kind' must be one of status, delay, network, reset, truncate, hang, respond$/,
      ],
      [{ kind: 'network', status: 500 }, /^a network fault takes no `status'$/],
      [{ status: 500, probability: 0 }, /^`probability' must be a number more than 0/],
      [{ status: 500, endpoint: 'keyv/get' }, /^`endpoint' must be an endpoint's or a package's/],
      [{ kind: 'hang', delayMs: 700_000 }, /^`delayMs' must be milliseconds from 0 to 600000$/],
      [{ kind: 'delay' }, /^a delay fault needs a delayMs$/],
      [
        { status: 503, endpoint: 'keyv.gte' },
        /^`endpoint' "keyv.gte" is neither an endpoint nor a package of this service; its package holds keyv.delete, keyv.get, keyv.scan, keyv.set$/,
      ],
      [
        { status: 503, endpont: 'keyv.get' },
        /^a fault takes kind, status, endpoint, .*; not `endpont'$/,
      ],
      [{ status: 503, token: '' }, /or a role: secret, authorization, none$/],
    ] as const) {
      const answer = await h.control('faults', rule)
      expect(answer.status, JSON.stringify(rule)).toBe(400)
      expect((answer.body as { error: { message: string } }).error.message).toMatch(message)
    }
    expect((await h.control('faults')).body).toEqual([])
  })

  it('matches a package by whole segments, and one bearer token only', async () => {
    const other = await h.authorize({ abilities: ['core', 'keyv'] })
    await h.control('faults', { status: 503, endpoint: 'keyv', count: null, token: other })
    const get = (token: string) =>
      h.call('keyv.get', { token, query: { bucket: 'b', key: 'k' }, accept: 'application/json' })
    expect((await get(h.secret.key)).status).toBe(200)
    expect((await get(other)).status).toBe(503)
    expect((await get(other)).status).toBe(503)
    expect((await h.call('core.ping', { token: other })).status).toBe(200)
    const [rule] = (await h.control('faults')).body as Array<{ id: string; count: null }>
    expect(rule).toMatchObject({ count: null, endpoint: 'keyv', kind: 'status', status: 503 })
    expect((await h.control(`faults/${rule!.id}/clear`, {})).body).toEqual([])
    expect((await get(other)).status).toBe(200)
    expect((await h.control('faults/nope/clear', {})).status).toBe(404)
  })

  it('matches the role of a token, as the journal names it, and a stored procedure to come', async () => {
    const authorization = await h.authorize({ abilities: ['core'] })
    await h.control('faults', { status: 503, endpoint: 'core.ping', count: null, token: 'secret' })
    await h.control('faults', { kind: 'network', endpoint: 'core.echo', token: 'authorization' })
    await h.control('faults', { status: 502, endpoint: 'core', token: 'none' })
    expect((await h.call('core.ping', { token: authorization })).status).toBe(200)
    expect((await h.call('core.ping')).status).toBe(503)
    expect((await h.call('core.echo', { body: 'x' })).status).toBe(200)
    // A dropped connection reads as status 0, or as fetch's own network error.
    const dropped = await h.call('core.echo', { body: 'x', token: authorization }).then(
      ({ status }) => status,
      (error: unknown) => (error instanceof TypeError ? 0 : error),
    )
    expect(dropped).toBe(0)
    expect((await h.call('core.echo', { body: 'x', token: null })).status).toBe(502)
    expect((await h.control('faults', { status: 500, endpoint: 'lib.later' })).status).toBe(200)
  })

  it('journals a faulted call with the role of its token, not as unknown', async () => {
    await h.control('exchanges', { capacity: 10 })
    const authorization = await h.authorize({ abilities: ['core'] })
    await h.control('faults', { kind: 'hang', delayMs: 1, endpoint: 'core.ping', count: 2 })
    // A hang ends in a dropped connection, which fetch throws as a network error.
    const hang = (token: string) => h.call('core.ping', { token }).catch(() => undefined)
    await hang(authorization)
    await hang('forged')
    const { exchanges } = (await h.control('exchanges')).body as {
      exchanges: Array<{ trace: { credential: { kind: string } | null } }>
    }
    expect(exchanges.slice(0, 2).map((e) => e.trace.credential?.kind)).toEqual([
      'unknown',
      'authorization',
    ])
  })

  it('meets a share of the calls with a probability', async () => {
    await h.control('faults', { status: 500, count: null, probability: 0.5 })
    let faulted = 0
    for (let i = 0; i < 200; i++) if ((await ping()).status === 500) faulted++
    // Binomial(200, 0.5): outside 50..150 once in about 10^12 runs.
    expect(faulted).toBeGreaterThan(50)
    expect(faulted).toBeLessThan(150)
  })

  it('drops the connection, resets it mid-body, or cuts the answer short', async () => {
    const outcome = async (kind: string) => {
      await h.control('faults', { kind, once: true })
      try {
        const response = await h.send(
          new Request(`${h.baseUrl}/core/echo`, {
            method: 'POST',
            headers: { authorization: `bearer ${h.secret.key}`, 'content-type': 'text/plain' },
            body: 'a value long enough to be cut in half',
          }),
        )
        if (response.type === 'error') return 'network error'
        return `${response.status} ${response.headers.get('x-fault')} ${await response.text()}`
      } catch (error) {
        return `failed: ${(error as Error).name}`
      }
    }
    expect(await outcome('network')).toMatch(/^(network error|failed: TypeError)$/)
    expect(await outcome('reset')).toMatch(/^failed: TypeError$/)
    expect(await outcome('truncate')).toBe('200 truncate a value long enoug')
    expect((await h.call('core.echo', { body: 'whole' })).text).toBe('whole')
  })

  it('hangs until the client gives up', async () => {
    await h.control('faults', { kind: 'hang', delayMs: 600_000 })
    const client = new AbortController()
    const started = performance.now()
    const pending = h
      .send(
        new Request(`${h.baseUrl}/core/ping`, {
          method: 'POST',
          headers: { authorization: `bearer ${h.secret.key}` },
          signal: client.signal,
        }),
      )
      .then(
        (response) => (response.type === 'error' ? 'network error' : String(response.status)),
        (error: Error) => `failed: ${error.name}`,
      )
    setTimeout(() => client.abort(), 100)
    expect(await pending).toMatch(/^(network error|failed: AbortError)$/)
    expect(performance.now() - started).toBeLessThan(10_000)
  })

  it('turns rate-limit enforcement on with a chosen limit, and reset puts it back', async () => {
    const set = await h.control('rate-limit', { enforce: true, limit: 2, windowSeconds: 60 })
    expect(set.body).toEqual({ enforce: true, limit: 2, windowSeconds: 60 })
    expect((await ping()).status).toBe(200)
    expect((await ping()).status).toBe(200)
    const limited = await ping()
    expect(limited.status).toBe(429)
    expect(limited.headers.get('x-rate-limit')).toBe('2;window=60')
    await h.control('faults', { status: 500, count: 5 })
    await h.control('reset', {})
    const fresh = await h.engine.account.createSecret()
    expect((await h.call('core.ping', { token: fresh.key })).status).toBe(200)
    expect((await h.control('faults')).body).toEqual([])
    expect((await h.control('rate-limit')).body).toMatchObject({ enforce: false })
  })
})
