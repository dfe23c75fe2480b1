import { describe, expect, it } from 'vitest'
import { pacedUpstream, type PaceClock } from './paced-upstream'
import type { Upstream, UpstreamRequest } from './upstream'

/** A clock that moves only when waited on, and an upstream that notes when each request came. */
function stage() {
  let now = 0
  const clock: PaceClock = {
    now: () => now,
    sleep: async (ms) => void (now += ms),
  }
  const at: number[] = []
  const upstream: Upstream = {
    baseUrl: 'https://upstream.test',
    send: async () => (at.push(now), { status: 200, headers: [], body: new Uint8Array() }),
    close: () => undefined,
  }
  return { clock, at, upstream }
}

const request: UpstreamRequest = {
  method: 'GET',
  pathname: '/core/ping',
  search: '',
  headers: [],
  body: new Uint8Array(),
}

describe('pacedUpstream', () => {
  it('sends at most the rate in any minute, the rest waiting their turn in order', async () => {
    const { clock, at, upstream } = stage()
    const paced = pacedUpstream(upstream, 2, clock)
    await Promise.all([1, 2, 3, 4, 5].map(() => paced.send(request)))
    expect(at).toEqual([0, 0, 60_000, 60_000, 120_000])
  })

  it('lets requests spread over more than a minute go without waiting', async () => {
    const { clock, at, upstream } = stage()
    const paced = pacedUpstream(upstream, 1, clock)
    await paced.send(request)
    await clock.sleep(61_000)
    await paced.send(request)
    expect(at).toEqual([0, 61_000])
  })

  it('refuses a rate that is not a whole number of calls a minute', () => {
    const { upstream } = stage()
    for (const rate of [0, -1, 1.5, Number.NaN]) {
      expect(() => pacedUpstream(upstream, rate)).toThrow(/whole number/)
    }
  })
})
