import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'
import type { WatchesReport } from './types'

let h: Harness

beforeEach(async () => {
  h = await createHarness()
})

const watches = async () => (await h.control('watches')).body as WatchesReport

async function pin(body: object): Promise<WatchesReport> {
  const response = await h.control('watches', body)
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  return response.body as WatchesReport
}

const get = (key: string) => ({ endpoint: 'keyv.get', args: { bucket: 'users', key } })

describe('watches', () => {
  it('are asked again of the engine at every read: a roll and the clock turn them', async () => {
    const notes = await h.authorize({
      abilities: ['keyv.get?bucket=users&prefix=alice/'],
      ttl: 600,
    })
    await pin({ token: notes, call: get('alice/1'), expect: 'allowed', label: 'the notes token' })
    const after = await pin({ token: notes, call: get('bob/1'), expect: 'refused' })
    expect(after.watches.map((w) => [w.label, w.expect, w.result.decision, w.holds])).toEqual([
      ['the notes token', 'allowed', 'allowed', true],
      [null, 'refused', 'refused', true],
    ])
    expect(after.watches[1]!.result.code).toBe('outside_limit')
    expect(after.failing).toBe(0)
    // Its expiry is the next moment an answer may change.
    expect(after.changesAt).toBe(after.watches[0]!.subject!.expiresAt)
    expect(JSON.stringify(after)).not.toContain(notes)

    h.clock.advance(601_000)
    const expired = await watches()
    expect(expired.watches.map((w) => [w.result.code, w.holds])).toEqual([
      ['expired', false],
      ['expired', true],
    ])
    expect(expired.failing).toBe(1)
    expect(expired.watches[0]!.result.counterfactual).toMatchObject({ change: 'use_before' })
    expect(expired.changesAt).toBeNull()

    const secretWatch = await pin({
      token: h.secret.key,
      call: { endpoint: 'core.ping' },
      expect: 'allowed',
    })
    expect(secretWatch.watches[2]!.holds).toBe(true)
    await h.engine.account.rollSecret(h.secret.id)
    expect((await watches()).watches[2]).toMatchObject({
      holds: false,
      result: { code: 'secret_rolled' },
    })
  })

  it('are kept with the account: exported, imported, removed, and checked on the way in', async () => {
    const token = await h.authorize({ abilities: ['core.ping'] })
    const pinned = await pin({ token, call: { endpoint: 'core.ping' }, expect: 'allowed' })
    const id = pinned.watches[0]!.id
    const exported = (await h.control('export')).body as { meta: Record<string, unknown> }
    expect(exported.meta.watches).toEqual([
      expect.objectContaining({ id, token, expect: 'allowed', call: { endpoint: 'core.ping' } }),
    ])
    const removed = await h.control(`watches/${id}/delete`, {})
    expect((removed.body as WatchesReport).watches).toEqual([])
    expect((await h.control(`watches/${id}/delete`, {})).status).toBe(404)

    expect((await h.control('import', exported)).status).toBe(200)
    expect((await watches()).watches.map((w) => [w.id, w.holds])).toEqual([[id, true]])

    const broken = {
      ...exported,
      meta: {
        ...exported.meta,
        watches: [{ id, token, call: { endpoint: 'core.ping' }, expect: 'maybe', createdAt: 1 }],
      },
    }
    const refused = await h.control('import', broken)
    expect(refused.status).toBe(400)
    expect(JSON.stringify(refused.body)).toContain('meta.watches[0] expect must be')
  })

  it('say what is wrong with one that is not a watch', async () => {
    for (const [body, message] of [
      [{ call: { endpoint: 'core.ping' }, expect: 'allowed' }, /token must be/],
      [{ token: 'x', call: { endpoint: 'a b' }, expect: 'allowed' }, /call must be/],
      [
        { token: 'x', call: { endpoint: 'core.ping', other: 1 }, expect: 'allowed' },
        /call.other is not part/,
      ],
      [{ token: 'x', call: { endpoint: 'core.ping' }, expect: 'yes' }, /expect must be/],
    ] as const) {
      const response = await h.control('watches', body)
      expect(response.status).toBe(400)
      expect((response.body as { error: { message: string } }).error.message).toMatch(message)
    }
  })
})
