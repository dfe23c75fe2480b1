import { encode } from '@msgpack/msgpack'
import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'
import { MAX_JOURNAL_BYTES, type ExchangeRecord } from './exchange-log'

let h: Harness

beforeEach(async () => {
  h = await createHarness({ exchangeLog: 20 })
})

async function exchanges(after?: number): Promise<ExchangeRecord[]> {
  const response = await h.control(`exchanges${after === undefined ? '' : `?after=${after}`}`)
  expect(response.status).toBe(200)
  return (response.body as { exchanges: ExchangeRecord[] }).exchanges
}

async function last(): Promise<ExchangeRecord> {
  const [newest] = await exchanges()
  return newest!
}

describe('the exchange log', () => {
  it('keeps each request, its answer and what let it in, newest first', async () => {
    await h.call('type.string.reverse', { body: 'hello', contentType: 'text/plain' })
    await h.call('core.ping')
    const [ping, reverse] = await exchanges()
    expect(ping!.id).toBeGreaterThan(reverse!.id)
    expect(reverse!.request).toMatchObject({
      method: 'POST',
      url: `${h.baseUrl}/type/string/reverse`,
      body: { encoding: 'text', data: 'hello', bytes: 5, truncated: false },
    })
    expect(reverse!.request.headers).toContainEqual(['authorization', `bearer ${h.secret.key}`])
    expect(reverse!.response).toMatchObject({
      status: 200,
      body: { encoding: 'text', data: 'olleh' },
    })
    expect(reverse!.response.headers).toContainEqual(['content-type', 'text/plain; charset=utf-8'])
    expect(reverse!.trace).toMatchObject({
      endpoint: 'type.string.reverse',
      credential: {
        kind: 'secret',
        decision: 'accepted',
        secretId: h.secret.id,
        explanation: `the secret key of \`${h.secret.id}', which reaches every endpoint`,
      },
      calls: [{ endpoint: 'type.string.reverse', depth: 0, decision: 'allowed', grant: 'secret' }],
      outcome: { status: 200, code: null, message: null },
    })
  })

  it('names the ability that let a call in, and says why one was refused', async () => {
    const token = await h.authorize({ abilities: ['type.string', 'keyv.get'] })
    await h.call('type.string.upcase', { token, body: 'a' })
    expect((await last()).trace.calls).toEqual([
      expect.objectContaining({
        decision: 'allowed',
        grant: 'ability',
        ability: 'type.string',
        explanation: "ability `type.string' covers `type.string.upcase'",
      }),
    ])
    const refused = await h.call('core.ping', { token })
    expect(refused.status).toBe(401)
    const { trace } = await last()
    expect(trace.credential).toMatchObject({
      kind: 'authorization',
      decision: 'accepted',
      secretId: h.secret.id,
      abilities: ['type.string', 'keyv.get'],
      expiresAt: null,
    })
    expect(trace.calls).toEqual([
      expect.objectContaining({
        endpoint: 'core.ping',
        decision: 'refused',
        code: 'missing_ability',
        status: 401,
        explanation:
          "no ability covers `core.ping'; the authorization holds `type.string', `keyv.get'",
      }),
    ])
    expect(trace.outcome).toEqual({
      status: 401,
      code: 'missing_ability',
      message: "authorization does not have the ability to access service `core.ping'",
      counterfactual: expect.objectContaining({
        code: 'missing_ability',
        change: 'add_ability',
        ability: 'core.ping',
        alternatives: ['core'],
      }),
    })
    expect(trace.calls[0]!.counterfactual).toEqual(trace.outcome.counterfactual)
  })

  it('tells a key-value limit apart from a missing ability, though the wire message is the same', async () => {
    const token = await h.authorize({ abilities: ['keyv.get?bucket=users&prefix=alice/'] })
    const inside = await h.call('keyv.get', { token, body: 'alice/1', query: { bucket: 'users' } })
    expect(inside.status).toBe(200)
    expect((await last()).trace.calls[0]).toMatchObject({
      decision: 'allowed',
      ability: 'keyv.get?bucket=users&prefix=alice/',
    })
    const outside = await h.call('keyv.get', { token, body: 'bob/1', query: { bucket: 'users' } })
    const missing = await h.call('keyv.set', { token, body: 'alice/1', query: { value: 'x' } })
    expect([outside.status, outside.text]).toEqual([
      401,
      "authorization does not have the ability to access service `keyv.get'",
    ])
    const [set, get] = await exchanges()
    expect(get!.trace.calls[0]).toMatchObject({
      decision: 'refused',
      code: 'outside_limit',
      explanation:
        "`keyv.get?bucket=users&prefix=alice/' covers `keyv.get', but not bucket `users' with key `bob/1': the call is outside its key-value limits",
      counterfactual: {
        code: 'outside_limit',
        change: 'widen_limit',
        from: 'keyv.get?bucket=users&prefix=alice/',
        to: 'keyv.get?bucket=users',
        ability: 'keyv.get?bucket=users&prefix=bob/1',
      },
    })
    expect(missing.status).toBe(401)
    expect(set!.trace.calls[0]).toMatchObject({ decision: 'refused', code: 'missing_ability' })
  })

  it('says when a token expired and when its secret was rolled', async () => {
    const token = await h.authorize({ abilities: ['core'], ttl: 60 })
    h.clock.advance(61_000)
    expect((await h.call('core.ping', { token })).status).toBe(401)
    const expired = (await last()).trace
    expect(expired.credential).toMatchObject({
      kind: 'authorization',
      decision: 'refused',
      reason: 'expired',
      expiresAt: expect.any(Number),
    })
    expect(expired.credential!.explanation).toMatch(
      /^the authorization expired at 2030-01-01 00:01:00 UTC \(virtual clock\)$/,
    )
    expect(expired.credential!.counterfactual).toMatchObject({
      code: 'expired',
      change: 'use_before',
      before: expired.credential!.expiresAt,
    })
    expect(expired.outcome.counterfactual).toEqual(expired.credential!.counterfactual)
    expect(expired.calls).toEqual([])

    const lasting = await h.authorize({ abilities: ['core'] })
    await h.engine.account.rollSecret(h.secret.id)
    await h.call('core.ping', { token: lasting })
    expect((await last()).trace.credential).toMatchObject({
      reason: 'secret_rolled',
      secretId: h.secret.id,
      secretExpiresAt: expect.any(Number),
      explanation: expect.stringMatching(
        new RegExp(
          `^its secret \`${h.secret.id}' was rolled; every authorization from it died at `,
        ),
      ),
    })
    await h.call('core.ping')
    expect((await last()).trace.credential).toMatchObject({
      kind: 'secret',
      reason: 'secret_rolled',
    })
  })

  it('explains a missing, malformed, unknown or altered token', async () => {
    await h.call('core.ping', { token: null })
    expect((await last()).trace.credential).toMatchObject({ kind: 'none', reason: 'missing' })
    await h.call('core.ping', { token: null, headers: { authorization: 'basic x' } })
    expect((await last()).trace.credential).toMatchObject({ kind: 'none', reason: 'malformed' })
    await h.call('core.ping', { token: 'not-a-secret-key' })
    expect((await last()).trace.credential).toMatchObject({ reason: 'unknown_token' })
    const token = await h.authorize({ abilities: ['core'] })
    await h.call('core.ping', { token: `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}` })
    expect((await last()).trace.credential).toMatchObject({ reason: 'bad_signature' })
  })

  it('traces each inner call of a composition with its own decision', async () => {
    const token = await h.authorize({ abilities: ['core.exec', 'type.string'] })
    const proc = ['{}', ['>>', 'abc'], ['()', 'type.string.reverse'], ['()', 'keyv.get']]
    const response = await h.tuples('core.exec', [['$$', 'proc', proc]], { token })
    expect(response.status).toBe(401)
    expect((await last()).trace.calls).toEqual([
      expect.objectContaining({ endpoint: 'core.exec', depth: 0, decision: 'aborted' }),
      expect.objectContaining({
        endpoint: 'type.string.reverse',
        depth: 1,
        decision: 'allowed',
        ability: 'type.string',
      }),
      expect.objectContaining({
        endpoint: 'keyv.get',
        depth: 1,
        decision: 'refused',
        code: 'missing_ability',
      }),
    ])
  })

  it('shows a stored procedure running with the account’s authority', async () => {
    await h.tuples('service.create', [
      ['$$', 'name', 'shout'],
      ['$$', 'proc', ['{}', ['()', 'type.string.upcase']]],
    ])
    const token = await h.authorize({ abilities: ['lib.shout'] })
    expect((await h.call('lib.shout', { token, body: 'hi' })).text).toBe('HI')
    expect((await last()).trace.calls).toEqual([
      expect.objectContaining({ endpoint: 'lib.shout', grant: 'ability', ability: 'lib.shout' }),
      expect.objectContaining({ endpoint: 'type.string.upcase', grant: 'procedure', depth: 1 }),
    ])
  })

  it('records why a call failed once it was let in: insecure abilities, bad arguments, a malformed body', async () => {
    await h.tuples('auth.create', [['$$', 'abilities', ['auth.create']]])
    expect((await last()).trace.calls[0]).toMatchObject({
      endpoint: 'auth.create',
      decision: 'failed',
      grant: 'secret',
      code: 'insecure_ability',
      status: 400,
      explanation: "insecure abilities `auth.create' are only granted with `insecure: true'",
    })
    await h.tuples('type.string.truncate', [['>>', 'abc']])
    expect((await last()).trace.calls[0]).toMatchObject({ decision: 'failed', code: 'required' })
    await h.call('core.echo', { contentType: 'application/json', body: '{"a": }' })
    const malformed = (await last()).trace
    expect(malformed.credential?.decision).toBe('accepted')
    expect(malformed.calls).toEqual([])
    expect(malformed.outcome.status).toBe(400)
    expect(malformed.outcome.message).toBe(
      'the body is not valid JSON: unexpected "}" at line 1, column 7',
    )
  })

  it('keeps MessagePack bodies as base64 and cuts long bodies', async () => {
    await h.send(
      new Request(`${h.baseUrl}/core/echo`, {
        method: 'POST',
        headers: {
          authorization: `bearer ${h.secret.key}`,
          'content-type': 'application/vnd.service+msgpack',
        },
        body: encode([['>>', 1]]),
      }),
    )
    const packed = await last()
    expect(packed.request.body).toEqual({
      encoding: 'base64',
      data: btoa(String.fromCharCode(...encode([['>>', 1]]))),
      bytes: 6,
      truncated: false,
    })
    expect(packed.response.body?.encoding).toBe('base64')

    await h.call('core.echo', { body: 'é'.repeat(40_000) })
    const long = await last()
    expect(long.request.body).toMatchObject({ encoding: 'text', bytes: 80_000, truncated: true })
    expect(long.request.body!.data).toBe('é'.repeat(32 * 1024))
  })

  it('leaves the control plane out, pages with after, clears, and keeps only the last ones', async () => {
    await h.control('clock')
    expect(await exchanges()).toEqual([])
    for (let i = 0; i < 25; i++) await h.call('core.ping')
    const kept = await exchanges()
    expect(kept).toHaveLength(20)
    expect(kept[0]!.id).toBe(25)
    expect((await exchanges(23)).map((record) => record.id)).toEqual([25, 24])
    expect((await h.control('exchanges?after=x')).status).toBe(400)
    expect((await h.control('exchanges/clear', {})).status).toBe(200)
    expect(await exchanges()).toEqual([])
    await h.call('core.ping')
    await h.control('reset', {})
    expect(await exchanges()).toEqual([])
  })

  it('keeps nothing unless asked to', async () => {
    const quiet = await createHarness()
    await quiet.call('core.ping')
    expect((await quiet.control('exchanges')).body).toEqual({
      capacity: 0,
      maxBytes: MAX_JOURNAL_BYTES,
      exchanges: [],
    })
  })
})

describe('GET /_account/procedures', () => {
  it('lists the stored procedures', async () => {
    await h.tuples('service.create', [
      ['$$', 'name', 'rev'],
      ['$$', 'proc', ['{}', ['()', 'type.string.reverse']]],
    ])
    expect((await h.control('procedures')).body).toEqual([
      {
        name: 'rev',
        proc: ['{}', ['()', 'type.string.reverse']],
        createdAt: expect.any(Number),
        updatedAt: expect.any(Number),
      },
    ])
  })
})
