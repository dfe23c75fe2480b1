import { beforeEach, describe, expect, it } from 'vitest'
import { nodeHmac } from '../../server/node-hmac'
import { createHarness, type Harness } from '../../testing/engine-harness'
import type { WhoReachesReport } from './types'

let h: Harness

beforeEach(async () => {
  h = await createHarness({ hmac: nodeHmac })
})

async function ask(body: object) {
  return h.control('who-reaches', body)
}

async function who(body: object): Promise<WhoReachesReport> {
  const response = await ask(body)
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  return response.body as WhoReachesReport
}

describe('who reaches a resource', () => {
  it('answers for a bucket and key: which tokens, through which ability, until when', async () => {
    const alice = await h.authorize({
      abilities: ['keyv.get?bucket=users&prefix=alice/'],
      ttl: 600,
    })
    const bob = await h.authorize({ abilities: ['keyv?bucket=users&prefix=bob/'] })
    const reader = await h.authorize({ abilities: ['keyv.get'] })
    const pinger = await h.authorize({ abilities: ['core.ping'] })
    const minter = await h.authorize({ abilities: ['auth.create'], insecure: true })
    const now = h.clock.now() / 1000
    await h.engine.account.rollSecret(h.secret.id, { at: now + 3600 })
    const tokens = [alice, bob, reader, pinger, minter]
    const report = await who({ resource: { bucket: 'users', key: 'alice/1' }, tokens })
    expect([...report.endpoints].sort()).toEqual([
      'keyv.delete',
      'keyv.get',
      'keyv.scan',
      'keyv.set',
    ])
    // The secret rolling, and the one that replaces it (made at the same moment on this clock:
    // listed in either order); then the tokens asked about, in order.
    const rollingFirst = (t: { token: { secretId: string | null } }) =>
      t.token.secretId === h.secret.id ? 0 : 1
    const secrets = report.tokens
      .filter((t) => t.source === 'secret')
      .sort((a, b) => rollingFirst(a) - rollingFirst(b))
    const given = report.tokens.filter((t) => t.source === 'given')
    expect(secrets.map((t) => [t.token.secretId, t.reaches, t.until])).toEqual([
      [h.secret.id, true, now + 3600],
      [expect.any(String), true, null],
    ])
    expect(secrets[0]!.through.map((t) => t.grant)).toEqual([
      'secret',
      'secret',
      'secret',
      'secret',
    ])
    expect(given.map((t) => [t.index, t.reaches, t.delegates])).toEqual([
      [0, true, false],
      [1, false, false],
      [2, true, false],
      [3, false, false],
      [4, false, true],
    ])
    // Alice's token: keyv.get only, by its limited ability, until its expiry (before the roll).
    const [aliceThrough] = given
    expect(aliceThrough!.through).toEqual([
      {
        endpoint: 'keyv.get',
        grant: 'ability',
        ability: 'keyv.get?bucket=users&prefix=alice/',
        keys: 'all',
      },
    ])
    expect(given[0]).toMatchObject({ until: now + 600, because: 'expiry' })
    expect(given[2]).toMatchObject({ until: now + 3600, because: 'roll' })
    // No token is repeated in the answer.
    const text = JSON.stringify(report)
    for (const token of [...tokens, h.secret.key]) expect(text).not.toContain(token)

    // The same question, answered by real calls: who the report says reaches, does.
    for (const [index, token] of tokens.entries()) {
      const answer = await h.call('keyv.get', { token, query: { bucket: 'users', key: 'alice/1' } })
      expect(answer.status === 200, `token ${index}`).toBe(
        given[index]!.through.some((t) => t.endpoint === 'keyv.get'),
      )
    }
  })

  it('answers for a bucket asked whole, an endpoint and a procedure; dead tokens reach nothing', async () => {
    const bob = await h.authorize({ abilities: ['keyv.scan?bucket=users&prefix=bob/'] })
    const gone = await h.authorize({ abilities: ['keyv'], ttl: 1 })
    h.clock.advance(2000)
    const bucket = await who({ resource: { bucket: 'users' }, tokens: [bob, gone] })
    expect(bucket.tokens[1]!.through).toEqual([
      {
        endpoint: 'keyv.scan',
        grant: 'ability',
        ability: 'keyv.scan?bucket=users&prefix=bob/',
        keys: { prefix: 'bob/' },
      },
    ])
    expect(bucket.tokens[2]).toMatchObject({
      reaches: false,
      until: null,
      token: { state: 'expired' },
    })

    // An integer key is the key it is stored as: its text.
    const numbered = await who({ resource: { bucket: 'users', key: 7 }, tokens: [] })
    expect(numbered.resource).toEqual({ bucket: 'users', key: '7' })

    const endpoint = await who({ resource: { endpoint: 'core.ping' }, tokens: [bob] })
    expect(endpoint.tokens.map((t) => t.reaches)).toEqual([true, false])

    await h.tuples(`${h.serviceName}.create`, [
      ['$$', 'name', 'notes'],
      ['$$', 'proc', ['{}', ['()', 'core.ping']]],
    ])
    const runner = await h.authorize({ abilities: ['lib.notes'] })
    const procedure = await who({ resource: { procedure: 'notes' }, tokens: [runner, bob] })
    expect(procedure.endpoints).toEqual(['lib.notes'])
    expect(procedure.tokens.map((t) => t.reaches)).toEqual([true, true, false])
  })

  it('says what is wrong with a question', async () => {
    for (const [body, status, message] of [
      [{}, 400, /give `resource` as/],
      [{ resource: { bucket: 'a', endpoint: 'core.ping' } }, 400, /give `resource` as/],
      [{ resource: { key: 'a' } }, 400, /give `resource` as/],
      [{ resource: { endpoint: 'no.such' } }, 404, /undefined service `no\.such'/],
      [
        { resource: { endpoint: 'keyv' } },
        404,
        /undefined service `keyv'; try one of: `keyv\.delete'/,
      ],
      // A key or bucket a call could not name: the bounds keyv holds calls to.
      [{ resource: { bucket: 'users', key: '' } }, 400, /`resource\.key' must be a key/],
      [{ resource: { bucket: 'users', key: 'k'.repeat(1025) } }, 400, /1 to 1024 characters/],
      [{ resource: { bucket: 'users', key: { a: 1 } } }, 400, /`resource\.key' must be a key/],
      [
        { resource: { bucket: 'b'.repeat(257) } },
        400,
        /`resource\.bucket' must be a bucket name of 1 to 256/,
      ],
      [
        { resource: { bucket: 'users', prefix: 'a/' } },
        400,
        /`resource\.prefix' is not part of a resource/,
      ],
      [{ resource: { procedure: 'not a name' } }, 400, /must be a stored procedure's name/],
      [{ resource: { procedure: 'nope' } }, 404, /no stored procedure `nope'/],
      [{ resource: { endpoint: 'core.ping' }, tokens: 'x' }, 400, /`tokens' must be an array/],
      [{ resource: { endpoint: 'core.ping' }, tokens: [1] }, 400, /each of `tokens'/],
    ] as const) {
      const response = await ask(body)
      expect(response.status, JSON.stringify(body)).toBe(status)
      expect((response.body as { error: { message: string } }).error.message).toMatch(message)
    }
  })
})
