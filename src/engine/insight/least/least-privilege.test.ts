import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../../testing/engine-harness'
import type { LeastPrivilegeReport } from './types'

let h: Harness

beforeEach(async () => {
  h = await createHarness({ exchangeLog: 1000 })
})

async function report(body: Record<string, unknown> = {}): Promise<LeastPrivilegeReport> {
  const response = await h.control('least-privilege', body)
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  return response.body as LeastPrivilegeReport
}

const get = (token: string, bucket: string, key: string) =>
  h.tuples(
    'keyv.get',
    [
      ['$$', 'bucket', bucket],
      ['$$', 'key', key],
    ],
    { token },
  )

describe('least privilege from the journal', () => {
  it('suggests the endpoints, the bucket and the key prefix used, proves it, and keeps the refusals met', async () => {
    const token = await h.authorize({ abilities: ['type.string', 'keyv?bucket=notes'] })
    expect(
      (await h.call('type.string.truncate', { token, body: 'hello', query: { length: '2' } }))
        .status,
    ).toBe(200)
    h.clock.advance(30_000)
    expect((await get(token, 'notes', 'alice/1')).status).toBe(200)
    expect((await get(token, 'notes', 'alice/2')).status).toBe(200)
    // Refusals the client relies on: another bucket, an endpoint it does not hold.
    expect((await get(token, 'other', 'alice/1')).status).toBe(401)
    expect((await h.call('core.ping', { token })).status).toBe(401)

    const { tokens, secretCalls, maxExcess } = await report()
    expect(secretCalls).toBe(1)
    expect(tokens).toHaveLength(1)
    const [one] = tokens
    expect(one!.minted).toMatchObject({
      abilities: ['type.string', 'keyv?bucket=notes'],
      inJournal: true,
    })
    expect(one!.suggestion.args).toEqual({
      abilities: ['keyv.get?bucket=notes&prefix=alice/', 'type.string.truncate'],
      ttl: 31,
    })
    expect(one!.use.refusals).toEqual([
      { endpoint: 'core.ping', code: 'missing_ability', calls: 1 },
      { endpoint: 'keyv.get', code: 'outside_limit', calls: 1 },
    ])
    expect(one!.proof).toMatchObject({
      status: 'proven',
      replayed: 5,
      newRefusals: [],
      changedAnswers: [],
      gained: [],
    })
    // type.string's 6 other endpoints, keyv's 3 others (of its 7 and 4); keys outside alice/;
    // after 31 s.
    expect(one!.excess).toEqual({ endpoints: 9, reached: 11, limits: 1, time: true })
    expect(maxExcess).toBe(9)
    expect(one!.flags.map((f) => f.kind)).toEqual([
      'package_for_endpoints',
      'package_for_endpoints',
      'keyv_wider',
      'never_expires',
    ])
    expect(JSON.stringify(tokens)).not.toContain(token)
    expect(JSON.stringify(tokens)).not.toContain(h.secret.key)
  })

  it('folds a package held whole when every endpoint of it was used, and asks insecure only for an insecure use', async () => {
    const token = await h.authorize({ abilities: ['type.string', 'auth'], insecure: true })
    const catalogue = (await h.control('endpoints')).body as Array<{
      name: string
      args: Record<string, { required?: boolean; type: string }>
    }>
    const strings = catalogue.filter((e) => e.name.startsWith('type.string.'))
    expect(strings.length).toBeGreaterThan(2)
    for (const { name, args } of strings) {
      const given = Object.entries(args)
        .filter(([, spec]) => spec.required)
        .map(([arg, spec]) => ['$$', arg, spec.type === 'string' ? 'x' : 1])
      expect((await h.tuples(name, [['>>', 'abc'], ...given], { token })).status).toBe(200)
    }
    const { tokens } = await report()
    expect(tokens[0]!.suggestion.abilities).toEqual(['type.string'])
    expect(tokens[0]!.suggestion.insecure).toBe(false)
    expect(tokens[0]!.flags.map((f) => f.kind)).toContain('insecure_unused')

    const minter = await h.authorize({
      abilities: ['auth.create', 'core'],
      insecure: true,
      ttl: 600,
    })
    const child = await h.authorize({ abilities: ['core.ping'] }, minter)
    await h.call('core.ping', { token: child })
    const again = await report()
    const parent = again.tokens.find((t) => t.minted.abilities?.includes('auth.create'))!
    expect(parent.suggestion.args).toEqual({ abilities: ['auth.create'], insecure: true, ttl: 600 })
    expect(parent.suggestion.notes.join(' ')).toMatch(/minted authorizations/)
    expect(parent.proof).toMatchObject({ status: 'proven', newRefusals: [], changedAnswers: [] })
  })

  it('says when a token was minted outside the journal, and suggests nothing for a token never let in', async () => {
    const token = await h.authorize({ abilities: ['core'] })
    const unused = await h.authorize({ abilities: ['keyv'] })
    await h.control('exchanges/clear', {})
    await h.call('core.ping', { token })
    await h.call('type.string.upcase', { token: unused, body: 'x' })
    const { tokens } = await report()
    const used = tokens.find((t) => t.minted.abilities?.[0] === 'core')!
    expect(used.minted.inJournal).toBe(false)
    expect(used.suggestion.notes[0]).toMatch(/minted outside the journal/)
    expect(used.suggestion.abilities).toEqual(['core.ping'])
    const never = tokens.find((t) => t.minted.abilities?.[0] === 'keyv')!
    expect(never.suggestion.abilities).toEqual([])
    expect(never.flags.map((f) => f.kind)).toContain('ability_unused')
    // Its one call stays refused under a token holding nothing.
    expect(never.proof).toMatchObject({ status: 'proven', replayed: 1, newRefusals: [] })
  })

  it('answers for one token, from entries sent, and refuses what it cannot read with a 400', async () => {
    const token = await h.authorize({ abilities: ['core.ping', 'type'] })
    const other = await h.authorize({ abilities: ['core', 'keyv.get'] })
    await h.call('core.ping', { token })
    await h.call('core.ping', { token: other })
    const one = await report({ token })
    expect(one.tokens.map((t) => t.minted.abilities)).toEqual([['core.ping', 'type']])
    const page = (await h.control('exchanges')).body as { exchanges: unknown[] }
    const sent = await report({ entries: page.exchanges, token: other })
    expect(sent.tokens.map((t) => t.suggestion.abilities)).toEqual([['core.ping']])
    expect((await report({ token: h.secret.key })).notes[0]).toMatch(/secret key/)
    for (const [body, message] of [
      [{ token: 'not-a-token.x' }, /not a token of this account/],
      [{ token: 7 }, /`token' must be a token/],
      [
        { entries: [{ request: {}, response: {}, trace: {} }] },
        /`entries\[0\]\.request\.url' must be a string/,
      ],
      [
        { entries: [{ ...(page.exchanges[0] as object), at: 'soon' }] },
        /`entries\[0\]\.at' must be a time/,
      ],
    ] as const) {
      const response = await h.control('least-privilege', body)
      expect([
        response.status,
        (response.body as { error: { message: string } }).error.message,
      ]).toEqual([400, expect.stringMatching(message)])
    }
    const skipped = await report({
      entries: [{ nothing: 1 }, ...page.exchanges],
      skipUnreadable: true,
    })
    expect(skipped).toMatchObject({ skipped: 1 })
    expect(skipped.tokens).toHaveLength(2)
  })
})
