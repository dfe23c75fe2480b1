import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})

type Listed = Array<{ id: string; state: string; expiresAt: number | null; rolledTo: string }>

describe('cancelling a scheduled roll (POST /_account/secrets/<id>/cancel-roll)', () => {
  it('keeps the secret and what it made alive past the time it would have died', async () => {
    const token = await h.authorize({ abilities: ['core'] })
    const now = h.clock.now() / 1000
    const replacement = (await h.control(`secrets/${h.secret.id}/roll`, { at: now + 60 })).body as {
      id: string
    }
    const cancelled = await h.control(`secrets/${h.secret.id}/cancel-roll`, {})
    expect(cancelled.status).toBe(200)
    expect(cancelled.body).toMatchObject({ id: h.secret.id, state: 'active', expiresAt: null })

    h.clock.advance(3_600_000)
    const listed = (await h.control('secrets')).body as Listed
    expect(listed.find((s) => s.id === h.secret.id)).toMatchObject({ state: 'active' })
    // The replacement the roll made stays, and a later roll reuses it.
    expect(listed.find((s) => s.id === replacement.id)).toMatchObject({ state: 'active' })
    expect((await h.call('core.ping', { token: h.secret.key })).status).toBe(200)
    expect((await h.call('core.ping', { token })).status).toBe(200)
    const again = await h.control(`secrets/${h.secret.id}/roll`, {})
    expect(again.body).toMatchObject({ id: replacement.id })
    expect((await h.call('core.ping', { token })).status).toBe(401)
  })

  it('refuses a secret with no roll scheduled, one already dead, and one that does not exist', async () => {
    const active = await h.control(`secrets/${h.secret.id}/cancel-roll`, {})
    expect([active.status, active.body]).toEqual([
      409,
      { error: { message: `secret \`${h.secret.id}' has no roll scheduled` } },
    ])
    await h.control(`secrets/${h.secret.id}/roll`, {})
    const dead = await h.control(`secrets/${h.secret.id}/cancel-roll`, {})
    expect([dead.status, dead.body]).toEqual([
      409,
      { error: { message: `secret \`${h.secret.id}' has already expired` } },
    ])
    const none = await h.control('secrets/sec_none/cancel-roll', {})
    expect(none.status).toBe(404)
  })
})
