import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})

describe('the control plane', () => {
  it('lists, creates and rolls secrets', async () => {
    const listed = await h.control('secrets')
    expect(listed.status).toBe(200)
    expect(listed.body).toEqual([
      {
        id: h.secret.id,
        key: h.secret.key,
        createdAt: h.secret.createdAt,
        expiresAt: null,
        rolledTo: null,
        state: 'active',
      },
    ])
    const created = await h.control('secrets', {})
    expect(created.status).toBe(200)
    const { key } = created.body as { key: string }
    expect((await h.call('core.ping', { token: key })).text).toBe('true')

    const now = h.clock.now() / 1000
    const rolled = await h.control(`secrets/${h.secret.id}/roll`, { at: now + 60 })
    const replacement = rolled.body as { id: string; state: string }
    expect(replacement.state).toBe('active')
    const after = (await h.control('secrets')).body as Array<{
      id: string
      state: string
      rolledTo: string
    }>
    expect(after.find((s) => s.id === h.secret.id)).toMatchObject({
      state: 'rolling',
      rolledTo: replacement.id,
    })
  })

  it('accepts a chosen secret key, and refuses a malformed or duplicate one', async () => {
    const chosen = await h.control('secrets', { key: 'my-secret-key-123' })
    expect(chosen.status).toBe(200)
    expect((await h.call('core.ping', { token: 'my-secret-key-123' })).text).toBe('true')
    const dup = await h.control('secrets', { key: 'my-secret-key-123' })
    expect(dup).toEqual({
      status: 409,
      body: { error: { message: 'the account already has that secret key' } },
    })
    const dotted = await h.control('secrets', { key: 'has.a.dot' })
    expect(dotted.status).toBe(400)
    const short = await h.control('secrets', { key: 123 })
    expect(short).toEqual({ status: 400, body: { error: { message: "`key' must be a string" } } })
  })

  it('rolls now, refuses to roll into the past or roll a dead secret, and can bring a roll closer', async () => {
    const now = h.clock.now() / 1000
    const past = await h.control(`secrets/${h.secret.id}/roll`, { at: now - 1 })
    expect(past.status).toBe(400)
    const later = await h.control(`secrets/${h.secret.id}/roll`, { at: now + 600 })
    const sooner = await h.control(`secrets/${h.secret.id}/roll`, {})
    expect((sooner.body as { id: string }).id).toBe((later.body as { id: string }).id)
    expect((await h.call('core.ping')).status).toBe(401)
    const again = await h.control(`secrets/${h.secret.id}/roll`, {})
    expect(again.status).toBe(409)
    const missing = await h.control('secrets/sec_nope/roll', {})
    expect(missing).toEqual({ status: 404, body: { error: { message: "no secret `sec_nope'" } } })
  })

  it('reads and advances the virtual clock', async () => {
    const before = (await h.control('clock')).body as { now: number }
    const after = (await h.control('clock', { advance: 90 })).body as { now: number }
    expect(after.now - before.now).toBeCloseTo(90)
    expect((await h.control('clock', { advance: -1 })).status).toBe(400)
    expect((await h.control('clock', { advance: 'soon' })).status).toBe(400)
  })

  it('keeps the clock within 100 years of real time, whatever it is asked', async () => {
    const before = (await h.control('clock')).body as { now: number }
    const token = await h.authorize({ abilities: ['core'], ttl: 60 })
    for (const advance of [1e306, 1e20, 100 * 365 * 24 * 3600 + 1]) {
      const refused = await h.control('clock', { advance })
      expect(refused.status).toBe(400)
      expect((refused.body as { error: { message: string } }).error.message).toMatch(
        /more than 3153600000 seconds \(about 100 years\) ahead of real time/,
      )
    }
    expect((await h.control('clock')).body).toEqual(before)
    expect((await h.call('core.ping', { token })).text).toBe('true')
    const longest = await h.control('clock', { advance: 100 * 365 * 24 * 3600 })
    expect(longest.status).toBe(200)
    expect((await h.control('clock', { advance: 1 })).status).toBe(400)
    expect((await h.authorize({ abilities: ['core'], ttl: 60 })).length).toBeGreaterThan(0)
  })

  it('ignores a clock offset stored out of bounds, and reset restores the clock', async () => {
    const before = (await h.control('clock')).body as { now: number }
    for (const value of [Number.POSITIVE_INFINITY, Number.NaN, -5000, 1e300]) {
      await h.engine.settings.store.commit([{ op: 'putMeta', key: 'clockOffset', value }])
      const clock = (await h.control('clock')).body as { now: number }
      expect(clock.now).toBe(before.now)
      expect((await h.call('core.ping')).text).toBe('true')
    }
    expect((await h.control('reset', {})).status).toBe(200)
    expect((await h.control('clock')).body).toEqual(before)
    expect((await h.control('clock', { advance: 10 })).body).toEqual({ now: before.now + 10 })
  })

  it('refuses unknown routes, wrong methods and malformed bodies clearly', async () => {
    expect((await h.control('nothing')).status).toBe(404)
    const method = await h.control('clock', undefined, 'DELETE')
    expect(method.status).toBe(405)
    const response = await h.send(
      new Request(`${h.baseUrl}/_account/secrets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{oops',
      }),
    )
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      error: { message: expect.stringContaining('the body is not valid JSON') },
    })
    const array = await h.control('secrets', [1])
    expect(array).toEqual({
      status: 400,
      body: { error: { message: 'the body must be a JSON object' } },
    })
  })

  it('is never reached through an endpoint name, and needs no token', async () => {
    const inner = await h.tuples('core.echo', [['>>', ['()', '_account.reset']]], {
      accept: 'text/plain',
    })
    expect([inner.status, inner.text]).toEqual([404, "undefined service `_account.reset'"])
    expect((await h.control('secrets')).body).toHaveLength(1)
    const withToken = await h.send(
      new Request(`${h.baseUrl}/_account/clock`, { headers: { authorization: 'bearer nonsense' } }),
    )
    expect(withToken.status).toBe(200)
  })

  it('reports what a token is, for the playground', async () => {
    const token = await h.authorize({ abilities: ['core'], ttl: 60 })
    const usable = await h.control('inspect', { token })
    expect(usable.body).toMatchObject({
      state: 'usable',
      details: { kind: 'authorization', secretId: h.secret.id, abilities: ['core'] },
    })
    await h.control('clock', { advance: 61 })
    expect((await h.control('inspect', { token })).body).toMatchObject({ state: 'expired' })
    expect((await h.control('inspect', { token: `${token}x` })).body).toEqual({
      state: 'invalid',
      reason: 'bad_signature',
    })
    const lasting = await h.authorize({ abilities: ['core'] })
    await h.engine.account.rollSecret(h.secret.id)
    expect((await h.control('inspect', { token: lasting })).body).toMatchObject({
      state: 'invalid',
      reason: 'secret_rolled',
    })
    // The first cause in time: it had expired before the roll took effect.
    expect((await h.control('inspect', { token })).body).toMatchObject({ state: 'expired' })
  })

  it('lists the endpoints with their arguments', async () => {
    const endpoints = (await h.control('endpoints')).body as Array<{
      name: string
      insecure: boolean
    }>
    expect(endpoints.map((e) => e.name)).toContain('type.string.reverse')
    expect(endpoints.find((e) => e.name === 'auth.create')).toMatchObject({ insecure: true })
  })
})

describe('reset, export and import', () => {
  it('resets the account: data, secrets and the signing key are gone', async () => {
    const token = await h.authorize({ abilities: ['core'] })
    await h.call('keyv.set', { body: 'k', query: { value: '1' } })
    expect((await h.control('reset', {})).status).toBe(200)
    expect((await h.control('secrets')).body).toEqual([])
    const fresh = await h.engine.account.createSecret()
    expect((await h.call('keyv.get', { token: fresh.key, body: 'k' })).text).toBe('null')
    expect((await h.call('core.ping', { token })).status).toBe(401)
  })

  it('round-trips the whole account, tokens included', async () => {
    const token = await h.authorize({ abilities: ['keyv'] })
    await h.call('keyv.set', { body: 'k', query: { value: '{"deep":[1,"two"]}' } })
    await h.control('clock', { advance: 30 })
    const exported = (await h.control('export')).body as Record<string, unknown>
    expect(exported).toMatchObject({
      format: 'service-playground/account',
      version: 1,
      serviceName: 'service',
    })

    const other = await createHarness()
    expect((await other.control('import', exported)).status).toBe(200)
    expect((await other.call('keyv.get', { token, body: 'k' })).text).toBe('{"deep":[1,"two"]}')
    expect((await other.call('core.ping', { token: h.secret.key })).text).toBe('true')
  })

  it('refuses a snapshot whose clock offset is out of bounds', async () => {
    const exported = (await h.control('export')).body as { meta: Record<string, unknown> }
    for (const clockOffset of [1e306, -1, 'soon']) {
      const response = await h.control('import', {
        ...exported,
        meta: { ...exported.meta, clockOffset },
      })
      expect(response.status).toBe(400)
      expect(JSON.stringify(response.body)).toMatch(/clockOffset/)
    }
    const fine = { ...exported, meta: { ...exported.meta, clockOffset: 3600_000 } }
    const before = (await h.control('clock')).body as { now: number }
    expect((await h.control('import', fine)).status).toBe(200)
    expect(((await h.control('clock')).body as { now: number }).now).toBe(before.now + 3600)
  })

  it('refuses a malformed snapshot and keeps what was stored', async () => {
    await h.call('keyv.set', { body: 'k', query: { value: '1' } })
    const exported = (await h.control('export')).body as Record<string, unknown>
    const broken = { ...exported, secrets: [{ id: 1 }] }
    const response = await h.control('import', broken)
    expect(response).toEqual({
      status: 400,
      body: {
        error: {
          message:
            'invalid snapshot: secrets[0].id must be a secret id: sec_ and 1 to 64 of A-Z a-z 0-9 - _, not 1',
        },
      },
    })
    for (const bad of [{}, { ...exported, version: 2 }, { ...exported, keyv: 'x' }]) {
      expect((await h.control('import', bad)).status).toBe(400)
    }
    expect((await h.call('keyv.get', { body: 'k' })).text).toBe('1')
  })

  it('refuses on import what the API refuses, naming the field', async () => {
    const exported = (await h.control('export')).body as {
      secrets: Array<Record<string, unknown>>
      procs: unknown[]
    }
    const badKey = { ...exported, secrets: [{ ...exported.secrets[0], key: 'a' }] }
    expect(await h.control('import', badKey)).toEqual({
      status: 400,
      body: {
        error: {
          message:
            'invalid snapshot: secrets[0].key must be a secret key: 8 to 256 of A-Z a-z 0-9 - _, not "a"',
        },
      },
    })
    const badProc = {
      ...exported,
      procs: [{ name: 'not a name', proc: ['{}'], createdAt: 1, updatedAt: 1 }],
    }
    expect(await h.control('import', badProc)).toEqual({
      status: 400,
      body: {
        error: {
          message:
            'invalid snapshot: procs[0].name must be a procedure name: letters, digits, . and _, starting with a letter, at most 64, and :dev for a dev stage, not "not a name"',
        },
      },
    })
    expect((await h.call('core.ping')).text).toBe('true')
  })
})
