import { describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../storage/memory-store'
import { createHarness } from '../../testing/engine-harness'
import type { Store } from '../store'

/**
 * A request of ~4,000 pure calls over a memory store never leaves the microtask queue by
 * itself. Timers count how often the event loop got a turn while it was being evaluated
 * (between its first store read and its answer).
 */
async function turnsDuringHeavyRequest(
  sliceMs: number,
): Promise<{ turns: number; status: number; lengths: number }> {
  const memory = createMemoryStore()
  let evaluating = false
  const store: Store = {
    ...memory,
    getKey: (bucket, key) => ((evaluating = true), memory.getKey(bucket, key)),
  }
  const h = await createHarness({ store, limits: { sliceMs } })
  let turns = 0
  let done = false
  const tick = () => {
    if (done) return
    if (evaluating) turns++
    setTimeout(tick, 0)
  }
  const body = JSON.stringify([
    ['>>', Array.from({ length: 1000 }, (_, i) => i)],
    ['$$', 'big', 'x'.repeat(5000)],
    [
      '$$',
      'proc',
      [
        '{}',
        ['()', 'keyv.get', ['>>', 'k']],
        ['()', 'type.string.reverse', ['>>', ['@@', 'big']]],
        ['()', 'type.string.length'],
      ],
    ],
  ])
  const request = new Request(`${h.baseUrl}/enum/map`, {
    method: 'POST',
    headers: { authorization: `bearer ${h.secret.key}`, 'content-type': h.vnd },
    body,
  })
  const answer = h.engine.handle(request)
  setTimeout(tick, 0)
  const response = await answer
  done = true
  const [[, lengths]] = (await response.json()) as [[string, number[]]]
  return { turns, status: response.status, lengths: new Set(lengths).size === 1 ? lengths[0]! : -1 }
}

describe('evaluation yields to the event loop', () => {
  it('lets timers and other requests in while a heavy request runs', async () => {
    const yielding = await turnsDuringHeavyRequest(1)
    expect([yielding.status, yielding.lengths]).toEqual([200, 5000])
    expect(yielding.turns).toBeGreaterThan(0)
  })

  it('holds the event loop for the whole request when it never yields', async () => {
    const greedy = await turnsDuringHeavyRequest(Number.POSITIVE_INFINITY)
    expect(greedy).toEqual({ turns: 0, status: 200, lengths: 5000 })
  })
})
