import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})

const ping = () => h.call('core.ping', { accept: 'application/json' })

describe('faults on demand', () => {
  it('answers the next calls with a 429 and retry-after, then as usual', async () => {
    expect((await h.control('faults', { status: 429, count: 2, retryAfter: 7 })).status).toBe(200)
    for (let i = 0; i < 2; i++) {
      const answer = await ping()
      expect(answer.status).toBe(429)
      expect(answer.headers.get('retry-after')).toBe('7')
      expect(answer.headers.get('x-fault')).toBe('429')
      expect(answer.json()).toEqual({
        error: { message: 'rate limited (a fault injected through the control plane)' },
      })
    }
    expect([(await ping()).status, (await h.control('faults')).body]).toEqual([200, []])
  })

  it('answers 408 and 500 for one endpoint only', async () => {
    await h.control('faults', { status: 500, endpoint: 'type.string.reverse' })
    await h.control('faults', { status: 408, endpoint: 'core.echo' })
    expect((await ping()).status).toBe(200)
    expect((await h.call('type.string.reverse', { body: 'ab' })).status).toBe(500)
    expect((await h.call('type.string.reverse', { body: 'ab' })).text).toBe('ba')
    expect((await h.call('core.echo', { body: 'x' })).status).toBe(408)
  })

  it('delays a call on the engine clock, then answers it', async () => {
    await h.control('faults', { status: 0, delayMs: 1500 })
    const before = h.clock.now()
    expect((await ping()).status).toBe(200)
    // The harness clock is manual: a sleep moves it instead of waiting.
    expect(h.clock.now() - before).toBeGreaterThanOrEqual(1500)
  })

  it('refuses a malformed rule, saying what to change', async () => {
    const bad = await h.control('faults', { status: 404 })
    expect(bad).toEqual({
      status: 400,
      body: { error: { message: "`status' must be 429, 408, 500, or 0 for a delay alone" } },
    })
    expect((await h.control('faults', { status: 429, count: 0 })).status).toBe(400)
  })

  it('turns rate-limit enforcement on with a chosen limit, and reset puts it back', async () => {
    const set = await h.control('rate-limit', { enforce: true, limit: 2, windowSeconds: 60 })
    expect(set.body).toEqual({ enforce: true, limit: 2, windowSeconds: 60 })
    expect((await ping()).status).toBe(200)
    expect((await ping()).status).toBe(200)
    const limited = await ping()
    expect(limited.status).toBe(429)
    expect(limited.headers.get('x-rate-limit')).toBe('2;window=60')
    await h.control('faults', { status: 500, count: 5 })
    await h.control('reset', {})
    const fresh = await h.engine.account.createSecret()
    expect((await h.call('core.ping', { token: fresh.key })).status).toBe(200)
    expect((await h.control('faults')).body).toEqual([])
    expect((await h.control('rate-limit')).body).toMatchObject({ enforce: false })
  })
})
