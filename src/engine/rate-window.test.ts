import { describe, expect, it } from 'vitest'
import { createHarness } from '../testing/engine-harness'

const twice = [
  [
    '$$',
    'proc',
    ['{}', ['>>', ['%%', 'ab']], ['()', 'type.string.reverse'], ['()', 'type.string.upcase']],
  ],
]

describe('the rate limit', () => {
  it('counts every endpoint call, inner calls included, as decision 006 says', async () => {
    const h = await createHarness({
      limits: { rateLimit: { limit: 7, windowSeconds: 60, enforce: true } },
    })
    // core.exec and its two inner calls: three calls per request.
    for (let i = 0; i < 2; i++) {
      const response = await h.tuples('core.exec', twice, { accept: 'text/plain' })
      expect([response.status, response.text]).toEqual([200, 'BA'])
    }
    const crossing = await h.tuples('core.exec', twice, { accept: 'text/plain' })
    expect([crossing.status, crossing.text]).toEqual([
      429,
      'rate limit of 7 calls per 60s exceeded; retry in 60s',
    ])
    expect(crossing.headers.get('retry-after')).toBe('60')
    expect((await h.call('core.ping')).status).toBe(429)
    h.clock.advance(60_000)
    expect((await h.call('core.ping')).status).toBe(200)
  })

  it('leaves nothing written by a request it stops part way', async () => {
    const h = await createHarness({
      limits: { rateLimit: { limit: 2, windowSeconds: 60, enforce: true } },
    })
    const writes = await h.tuples('core.exec', [
      [
        '$$',
        'proc',
        [
          '{}',
          ['()', 'keyv.set', ['>>', 'a'], ['$$', 'value', 1]],
          ['()', 'keyv.set', ['>>', 'b'], ['$$', 'value', 2]],
        ],
      ],
    ])
    expect(writes.status).toBe(429)
    h.clock.advance(60_000)
    expect((await h.call('keyv.get', { body: 'a' })).text).toBe('null')
  })

  it('still counts a single call once', async () => {
    const h = await createHarness({
      limits: { rateLimit: { limit: 3, windowSeconds: 60, enforce: true } },
    })
    for (let i = 0; i < 3; i++) expect((await h.call('core.ping')).status).toBe(200)
    expect((await h.call('core.ping')).status).toBe(429)
  })
})
