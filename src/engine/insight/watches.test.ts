import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'
import type { ExchangePage } from '../control/control-routes'
import type { WatchesReport } from './types'

let h: Harness

beforeEach(async () => {
  h = await createHarness({ exchangeLog: 100 })
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

  it('refuse at the pin what could never say anything of its token, each with what is wrong', async () => {
    const notes = await h.authorize({ abilities: ['keyv.get?bucket=users&prefix=alice/'], ttl: 60 })
    const other = await createHarness()
    const foreign = await other.authorize({ abilities: ['core.ping'] })
    const cases = [
      // An endpoint the account does not have, or a package: the 404 a call gets.
      [{ token: notes, call: { endpoint: 'no.such' } }, 404, /^undefined service `no\.such'$/],
      [
        { token: notes, call: { endpoint: 'keyv' } },
        404,
        /try one of: `keyv\.delete', `keyv\.get'/,
      ],
      // A stored procedure that is not (yet) there.
      [{ token: notes, call: { endpoint: 'lib.notes' } }, 404, /undefined service `lib\.notes'/],
      // A key that is not one, a bucket too long: the 400 the endpoint answers, whatever the token.
      [
        { token: notes, call: { endpoint: 'keyv.get', args: { bucket: 'users', key: { a: 1 } } } },
        400,
        /call must be one `keyv\.get' accepts.*answered 400: invalid argument `key' for `keyv\.get' \(must be a string/,
      ],
      [
        {
          token: notes,
          call: { endpoint: 'keyv.get', args: { bucket: 'b'.repeat(300), key: 'a' } },
        },
        400,
        /invalid argument `bucket' for `keyv\.get' \(must be 1 to 256 characters\)/,
      ],
      // A token this account never made: not a key of it, signed by another account.
      [
        { token: 'sk_not-a-key-of-this-account', call: { endpoint: 'core.ping' } },
        400,
        /token must be one this account made.*no secret of this account has this key/,
      ],
      [
        { token: foreign, call: { endpoint: 'core.ping' } },
        400,
        /token must be one this account made.*another account/,
      ],
    ] as const
    for (const [body, status, message] of cases) {
      const response = await h.control('watches', { ...body, expect: 'refused' })
      expect(response.status, JSON.stringify(body.call)).toBe(status)
      expect((response.body as { error: { message: string } }).error.message).toMatch(message)
    }
    // A dead token is taken (the leaked token cannot call it is worth keeping), but its call
    // is still read: a live secret says the key is not one.
    h.clock.advance(61_000)
    const empty = { endpoint: 'keyv.get', args: { bucket: 'users', key: '' } }
    const dead = await h.control('watches', { token: notes, call: empty, expect: 'refused' })
    expect(dead.status).toBe(400)
    expect(JSON.stringify(dead.body)).toMatch(/invalid argument `key' for `keyv\.get'/)
    const kept = await pin({ token: notes, call: get('bob/1'), expect: 'refused' })
    expect(kept.watches.map((w) => [w.subject?.state, w.result.code, w.holds])).toEqual([
      ['expired', 'expired', true],
    ])
    expect(JSON.stringify(await h.control('export'))).not.toContain(foreign)
  })

  it('keep one whose token this account no longer knows, failing with why, whatever it expects', async () => {
    const token = await h.authorize({ abilities: ['core.ping'] })
    await pin({ token, call: { endpoint: 'core.ping' }, expect: 'allowed' })
    await pin({ token, call: { endpoint: 'core.echo', input: 1 }, expect: 'refused' })
    const exported = (await h.control('export')).body as { meta: { watches: unknown[] } }
    // An export brought into another account: its watches come, their token is a stranger there.
    const other = await createHarness()
    expect(
      (
        await other.control('import', {
          ...exported,
          meta: {
            ...exported.meta,
            signingKey: ((await other.control('export')).body as { meta: { signingKey: unknown } })
              .meta.signingKey,
          },
        })
      ).status,
    ).toBe(200)
    const report = (await other.control('watches')).body as WatchesReport
    expect(report.watches.map((w) => [w.subject?.state, w.result.code, w.holds])).toEqual([
      ['invalid', 'bad_signature', false],
      ['invalid', 'bad_signature', false],
    ])
    expect(report.failing).toBe(2)
    expect(report.watches[1]!.result.explanation).toMatch(
      /signature does not verify.*another account/,
    )
    expect(JSON.stringify(report)).not.toContain(token)
  })

  it('leave no trace: no exchange in the journal, no key written, simulated each read', async () => {
    const writer = await h.authorize({ abilities: ['keyv.set?bucket=users'] })
    const journal = async () => ((await h.control('exchanges')).body as ExchangePage).exchanges
    const before = await journal()
    const set = { endpoint: 'keyv.set', args: { bucket: 'users', key: 'alice/1', value: 1 } }
    await pin({ token: writer, call: set, expect: 'allowed' })
    await pin({
      token: h.secret.key,
      call: { endpoint: 'keyv.delete', args: { bucket: 'users', key: 'alice/1' } },
      expect: 'allowed',
    })
    const report = await watches()
    expect(report.watches.map((w) => w.holds)).toEqual([true, true])
    await h.control('who-reaches', {
      resource: { bucket: 'users', key: 'alice/1' },
      tokens: [writer],
    })
    expect(await journal()).toEqual(before)
    expect((await h.call('keyv.get', { query: { bucket: 'users', key: 'alice/1' } })).text).toBe(
      'null',
    )
  })
})
