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
    // type.string's 6 other endpoints, keyv's 3 others; keys outside alice/; after 31 s.
    expect(one!.excess).toEqual({ endpoints: 9, limits: 1, time: true })
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
})
