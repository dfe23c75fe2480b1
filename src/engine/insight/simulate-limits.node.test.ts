import { describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../storage/memory-store'
import { createManualClock } from '../clock'
import { createEngine } from '../engine'
import type { AccountTurns } from '../runtime/turns'
import type { SimulateReport } from './types'

/** `times` times, reverse a 2 kB string: about 2 × `times` calls. */
const heavy = (times: number) => ({
  endpoint: 'enum.map',
  input: Array.from({ length: times }, (_, i) => i),
  args: {
    big: 'x'.repeat(2_000),
    proc: [
      '{}',
      ['>>', ['@@', 'big']],
      ['()', 'type.string.reverse'],
      ['()', 'type.string.length'],
    ],
  },
})

/** An engine on a clock on which every reading is `tickMs` later: computing takes time on it. */
async function ticking(tickMs: number, turns?: AccountTurns) {
  const clock = createManualClock()
  const now = clock.now.bind(clock)
  clock.now = () => (clock.advance(tickMs), now())
  const engine = createEngine({ store: createMemoryStore(), clock, ...(turns ? { turns } : {}) })
  const [secret] = await engine.start()
  const send = (path: string, body: unknown, init: RequestInit = {}) =>
    engine.handle(
      new Request(`https://api.service.test/${path}`, {
        method: 'POST',
        headers: {
          authorization: `bearer ${secret!}`,
          'content-type': path.startsWith('_account')
            ? 'application/json'
            : 'application/vnd.service+json',
          accept: 'application/json',
        },
        body: JSON.stringify(body),
        ...init,
      }),
    )
  return { secret: secret!, send }
}

describe('simulate decides as the real call would, in turns, and stops when its client goes away', () => {
  it('reports the 408 the real call answers when its computing passes the time limit', async () => {
    const { secret, send } = await ticking(2)
    const call = heavy(1_500)
    // The real call: 3,000 calls, each reading the clock, pass 5 s on this clock.
    const real = await send('enum/map', [
      ['>>', call.input],
      ...Object.entries(call.args).map(([name, value]) => ['$$', name, value]),
    ])
    expect(real.status).toBe(408)
    const simulated = await send('_account/simulate', {
      token: secret,
      calls: [call, { endpoint: 'core.sleep', args: { seconds: 6 } }, heavy(10)],
    })
    expect(simulated.status).toBe(200)
    const { results } = (await simulated.json()) as SimulateReport
    expect(results.map((r) => [r.decision, r.status, r.message])).toEqual([
      ['failed', 408, 'forced to stop after 5s'],
      ['failed', 408, 'forced to stop after 5s'],
      ['allowed', 200, null],
    ])
  })

  it('takes its turns between calls, and stops at the next once its client has gone', async () => {
    const gone = new AbortController()
    let pauses = 0
    let afterAbort = 0
    const turns: AccountTurns = {
      admit: (run, signal) =>
        run(() => {
          pauses++
          if (signal?.aborted) afterAbort++
          // The client goes away in the middle of the first call.
          if (pauses === 100) gone.abort()
          return undefined
        }),
    }
    const { secret, send } = await ticking(0, turns)
    const simulated = await send(
      '_account/simulate',
      { token: secret, calls: [heavy(1_000), heavy(1_000)] },
      { signal: gone.signal },
    )
    // No one reads it: the work stopped at once.
    expect(simulated.status).toBe(499)
    expect(pauses).toBeGreaterThanOrEqual(100)
    expect(afterAbort).toBeLessThanOrEqual(1)
  })
})
