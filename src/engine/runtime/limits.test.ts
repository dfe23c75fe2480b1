import { describe, expect, it } from 'vitest'
import { createHarness } from '../../testing/engine-harness'

describe('the time limit', () => {
  it('stops a call past 5 s with 408, on the engine clock', async () => {
    const h = await createHarness()
    const started = Date.now()
    const response = await h.call('core.sleep', { query: { seconds: '6' } })
    expect([response.status, response.text]).toEqual([408, 'forced to stop after 5s'])
    expect(Date.now() - started).toBeLessThan(1000)
    expect((await h.call('core.sleep', { query: { seconds: '4.9' } })).status).toBe(200)
  })

  it('covers the whole tree, not each call', async () => {
    const h = await createHarness()
    const sleep = (seconds: number) => ['()', 'core.sleep', ['$$', 'seconds', seconds]]
    const response = await h.tuples('core.echo', [['>>', ['{}', sleep(3), sleep(3)]]], {
      accept: 'text/plain',
    })
    expect([response.status, response.text]).toEqual([408, 'forced to stop after 5s'])
  })
})

describe('runaway trees', () => {
  it('refuses nesting deeper than the limit with its own message', async () => {
    const h = await createHarness({ limits: { maxDepth: 10 } })
    let node: unknown = ['%%', 'x']
    for (let i = 0; i < 12; i++) node = ['{}', ['>>', node], ['()', 'core.echo']]
    const response = await h.tuples('core.echo', [['>>', node]], { accept: 'text/plain' })
    expect([response.status, response.text]).toEqual([
      400,
      'the call tree nests deeper than 10 levels',
    ])
  })

  it('refuses more calls than the limit', async () => {
    const h = await createHarness({ limits: { maxCalls: 5 } })
    const calls = Array.from({ length: 6 }, () => ['()', 'core.echo'])
    const response = await h.tuples('core.echo', [['>>', ['{}', ['>>', 1], ...calls]]], {
      accept: 'text/plain',
    })
    expect([response.status, response.text]).toEqual([400, 'the request makes more than 5 calls'])
  })
})

describe('values that grow without bound', () => {
  it('are stopped when a call output passes the size limit', async () => {
    const h = await createHarness()
    // Each level appends its argument to itself: the string doubles, 40 levels reach 2^40.
    let node: unknown = ['%%', 'x'.repeat(1024)]
    for (let i = 0; i < 40; i++) {
      node = [
        '{}',
        ['$$', 'x', node],
        ['()', 'type.string.append', ['>>', ['@@', 'x']], ['$$', 'value', ['@@', 'x']]],
      ]
    }
    const started = Date.now()
    const response = await h.tuples('type.string.length', [['>>', node]], { accept: 'text/plain' })
    expect([response.status, response.text]).toEqual([
      400,
      "the output of `type.string.append' is larger than 8388608 bytes",
    ])
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it('count repeated references in full, and let ordinary results through', async () => {
    const h = await createHarness({ limits: { maxValueBytes: 100_000 } })
    const big = Array.from({ length: 1000 }, (_, i) => i)
    const repeated = await h.tuples('enum.map', [
      ['>>', ['%%', big]],
      ['$$', 'all', ['%%', big]],
      ['$$', 'proc', ['{}', ['()', 'core.echo', ['>>', ['@@', 'all']]]]],
    ])
    expect(repeated.status).toBe(400)
    const small = await h.tuples('enum.map', [
      ['>>', ['%%', big]],
      ['$$', 'proc', ['{}', ['()', 'core.echo']]],
    ])
    expect(small.json()).toEqual([['<<', big]])
  })
})

describe('the rate limit', () => {
  it('is announced but not enforced by default', async () => {
    const h = await createHarness()
    for (let i = 0; i < 25; i++) expect((await h.call('core.ping')).status).toBe(200)
  })

  it('refuses calls past the limit with 429 when enforced, until the window passes', async () => {
    const h = await createHarness({
      limits: { rateLimit: { limit: 3, windowSeconds: 60, enforce: true } },
    })
    for (let i = 0; i < 3; i++)
      expect((await h.call('core.ping')).headers.get('x-rate-limit')).toBe('3;window=60')
    const limited = await h.call('core.ping')
    expect(limited.status).toBe(429)
    expect(limited.text).toBe('rate limit of 3 calls per 60s exceeded; retry in 60s')
    expect(limited.headers.get('retry-after')).toBe('60')
    h.clock.advance(60_000)
    expect((await h.call('core.ping')).status).toBe(200)
  })
})
