import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'
import type { SimulateCall, SimulateReport } from './types'

let h: Harness

beforeEach(async () => {
  h = await createHarness()
})

async function simulate(token: string, calls: SimulateCall[], at?: number) {
  const response = await h.control(
    'simulate',
    at === undefined ? { token, calls } : { token, calls, at },
  )
  expect(response.status).toBe(200)
  return response.body as SimulateReport
}

describe('simulate', () => {
  it('decides each call as a real call would, and writes nothing', async () => {
    const before = await h.control('export')
    const service = h.serviceName
    const { results } = await simulate(h.secret.key, [
      { endpoint: 'keyv.set', args: { bucket: 'b', key: 'k', value: 1 } },
      { endpoint: `${service}.create`, args: { name: 'p', proc: ['{}', ['()', 'core.ping']] } },
      { endpoint: 'auth.create', args: { abilities: ['core'] } },
      { endpoint: 'keyv.get', args: { bucket: 'b', key: 'k' } },
    ])
    expect(results.map((r) => [r.endpoint, r.decision, r.status])).toEqual([
      ['keyv.set', 'allowed', 200],
      [`${service}.create`, 'allowed', 200],
      ['auth.create', 'allowed', 200],
      ['keyv.get', 'allowed', 200],
    ])
    const after = await h.control('export')
    expect({ ...(after.body as object), exportedAt: 0 }).toEqual({
      ...(before.body as object),
      exportedAt: 0,
    })
    expect((await h.call('keyv.get', { query: { bucket: 'b', key: 'k' } })).text).toBe('null')
    // No answer value is given back: an authorization minted in simulation is not in it.
    expect(JSON.stringify(results)).not.toMatch(/\.[A-Za-z0-9_-]{43}/)
  })

  it('gives the engine reason, the wire message and the counterfactual of each refusal', async () => {
    const token = await h.authorize({ abilities: ['keyv.get?bucket=users&prefix=alice/', 'type'] })
    const { results } = await simulate(token, [
      { endpoint: 'keyv.get', args: { bucket: 'users', key: 'bob/1' } },
      { endpoint: 'keyv.get', args: { bucket: 'users', key: 'alice/1' } },
      { endpoint: 'type.string.truncate', input: 'hello' },
      {
        endpoint: 'type.string.truncate',
        body: 'hello',
        contentType: 'text/plain',
        query: 'length=2',
      },
      { endpoint: 'core.exec', args: { proc: ['{}', ['()', 'core.ping']] } },
    ])
    const [outside, inside, missingArg, fromText, inner] = results
    expect(outside).toMatchObject({
      decision: 'refused',
      status: 401,
      code: 'outside_limit',
      message: `authorization does not have the ability to access ${h.serviceName} \`keyv.get'`,
      counterfactual: { change: 'widen_limit', to: 'keyv.get?bucket=users' },
    })
    expect(inside).toMatchObject({ decision: 'allowed', status: 200 })
    expect(missingArg).toMatchObject({
      decision: 'failed',
      status: 400,
      code: 'required',
      counterfactual: { change: 'fix_request', argument: 'length' },
    })
    expect(fromText).toMatchObject({ decision: 'allowed' })
    expect(inner).toMatchObject({ decision: 'refused', code: 'missing_ability' })
    // The same calls, made for real, are answered as simulate said.
    const real = await h.tuples(
      'keyv.get',
      [
        ['$$', 'bucket', 'users'],
        ['$$', 'key', 'bob/1'],
      ],
      {
        token,
        accept: 'text/plain',
      },
    )
    expect([real.status, real.text]).toEqual([outside!.status, outside!.message])
  })

  it('answers for a moment, and a time limit takes no real time', async () => {
    const token = await h.authorize({ abilities: ['core'], ttl: 60 })
    const now = await h.engine.account.now()
    const at = await simulate(token, [{ endpoint: 'core.ping' }], now + 61)
    expect(at.token.state).toBe('expired')
    expect(at.results[0]).toMatchObject({
      decision: 'refused',
      code: 'expired',
      counterfactual: { change: 'use_before', before: now + 60 },
    })
    const slept = await simulate(h.secret.key, [{ endpoint: 'core.sleep', args: { seconds: 10 } }])
    expect(slept.results[0]).toMatchObject({ status: 408, code: 'timeout', decision: 'failed' })
  })

  it('refuses a malformed request with a 400', async () => {
    expect((await h.control('simulate', { token: h.secret.key })).status).toBe(400)
    expect((await h.control('simulate', { token: h.secret.key, calls: [{}] })).status).toBe(400)
    expect(
      (
        await h.control('simulate', {
          token: h.secret.key,
          calls: [{ endpoint: 'core.ping', args: null }],
        })
      ).status,
    ).toBe(400)
  })
})
