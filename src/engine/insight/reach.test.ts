import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'
import type { ReachEndpoint, ReachReport } from './types'

let h: Harness

beforeEach(async () => {
  h = await createHarness()
})

async function reach(token: string, at?: number): Promise<ReachReport> {
  const response = await h.control('reach', at === undefined ? { token } : { token, at })
  expect(response.status).toBe(200)
  return response.body as ReachReport
}

const endpoint = (report: ReachReport, name: string): ReachEndpoint =>
  report.endpoints.find((e) => e.endpoint === name)!

describe('reach', () => {
  it('lists every endpoint a limited authorization reaches, with its limits and counterfactuals', async () => {
    const proc = [
      ['$$', 'name', 'report'],
      ['$$', 'proc', ['{}', ['()', 'core.ping']]],
    ]
    expect((await h.tuples(`${h.serviceName}.create`, proc)).status).toBe(200)
    await h.tuples(`${h.serviceName}.create`, [['$$', 'name', 'other'], proc[1]])
    const token = await h.authorize({
      abilities: ['type.string', 'keyv.get?bucket=users&prefix=alice/', 'lib.report'],
      ttl: 60,
    })
    const report = await reach(token)
    expect(report.token).toMatchObject({
      kind: 'authorization',
      state: 'usable',
      secretId: h.secret.id,
    })
    expect(report.stops).toEqual({ at: report.token.expiresAt, because: 'expiry' })
    expect(report.delegates).toBe(false)
    expect(endpoint(report, 'type.string.reverse')).toMatchObject({
      decision: 'allowed',
      grant: 'ability',
      ability: 'type.string',
      limits: null,
    })
    expect(endpoint(report, 'type.number.add')).toMatchObject({
      decision: 'refused',
      code: 'missing_ability',
      counterfactual: {
        change: 'add_ability',
        ability: 'type.number.add',
        alternatives: ['type.number', 'type'],
      },
    })
    expect(endpoint(report, 'keyv.get')).toMatchObject({
      decision: 'allowed',
      limits: [
        { ability: 'keyv.get?bucket=users&prefix=alice/', bucket: 'users', prefix: 'alice/' },
      ],
    })
    expect(endpoint(report, 'keyv.set').decision).toBe('refused')
    expect(endpoint(report, 'lib.report').decision).toBe('allowed')
    expect(endpoint(report, 'lib.other')).toMatchObject({
      decision: 'refused',
      counterfactual: { ability: 'lib.other', alternatives: ['lib'] },
    })
    expect(endpoint(report, `${h.serviceName}.create`)).toMatchObject({
      insecure: true,
      decision: 'refused',
      counterfactual: { insecure: true },
    })
    const pkg = (name: string) => report.packages.find((p) => p.package === name)
    expect(pkg('type.string')).toMatchObject({ decision: 'all' })
    expect(pkg('type')).toMatchObject({ decision: 'some' })
    expect(pkg('core')).toMatchObject({ decision: 'none', allowed: 0 })
    expect(pkg('lib')).toEqual({ package: 'lib', endpoints: 2, allowed: 1, decision: 'some' })
    // A report describes a token: it never repeats it, nor any secret key.
    expect(JSON.stringify(report)).not.toContain(token)
    expect(JSON.stringify(report)).not.toContain(h.secret.key)
  })

  it('gives a secret key everything, and says when its scheduled roll ends it', async () => {
    const before = await reach(h.secret.key)
    expect(before.endpoints.every((e) => e.decision === 'allowed' && e.grant === 'secret')).toBe(
      true,
    )
    expect(before.delegates).toBe(true)
    expect(before.stops).toEqual({ at: null, because: null })
    const now = (await h.engine.account.now()) + 3600
    await h.engine.account.rollSecret(h.secret.id, { at: now })
    expect((await reach(h.secret.key)).stops).toEqual({ at: now, because: 'roll' })
    const child = await h.authorize({ abilities: ['core'], ttl: 7200 })
    expect((await reach(child)).stops).toEqual({ at: now, because: 'roll' })
  })

  it('names insecure abilities and delegation', async () => {
    const token = await h.authorize({ abilities: ['auth', 'core.ping'], insecure: true })
    const report = await reach(token)
    expect(report.insecureAbilities).toEqual(['auth'])
    expect(report.delegates).toBe(true)
  })

  it('answers for a moment: before and after an expiry', async () => {
    const token = await h.authorize({ abilities: ['core'], ttl: 60 })
    const now = await h.engine.account.now()
    expect(endpoint(await reach(token, now + 59), 'core.ping').decision).toBe('allowed')
    const later = await reach(token, now + 61)
    expect(later.token).toMatchObject({ state: 'expired', reason: 'expired' })
    expect(endpoint(later, 'core.ping')).toMatchObject({
      decision: 'refused',
      code: 'expired',
      counterfactual: { change: 'use_before', before: now + 60 },
    })
    // Asking about a moment moves nothing: the token still works now.
    expect((await h.call('core.ping', { token })).status).toBe(200)
  })

  it('refuses what it cannot read with a 400 naming the field', async () => {
    expect(await h.control('reach', {})).toMatchObject({ status: 400 })
    expect(await h.control('reach', { token: 'x', at: 'soon' })).toMatchObject({ status: 400 })
    const unknown = await reach('not-a-token')
    expect(unknown.token).toMatchObject({ state: 'invalid', reason: 'unknown_token' })
    expect(unknown.endpoints.every((e) => e.decision === 'refused')).toBe(true)
  })
})
