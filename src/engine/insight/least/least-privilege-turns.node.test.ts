// Least privilege over the wire takes its account's turns (decision 072) as simulate and diff
// do, between the journal's entries and the calls of its proof, and stops at the next turn once
// its client has gone.
import { describe, expect, it } from 'vitest'
import { nodeHmac } from '../../../server/node-hmac'
import { createMemoryStore } from '../../../storage/memory-store'
import { createManualClock } from '../../clock'
import { createEngine } from '../../engine'
import type { AccountTurns } from '../../runtime/turns'
import type { LeastPrivilegeReport } from './types'

const BASE = 'https://turns.test'

/** An engine whose turns are counted, and a client that can go away after a number of them. */
async function counted() {
  const gone = new AbortController()
  const seen = { admitted: 0, pauses: 0, afterAbort: 0, goneAt: Infinity }
  const turns: AccountTurns = {
    admit: (run, signal) => {
      seen.admitted++
      return run(() => {
        seen.pauses++
        if (signal?.aborted) seen.afterAbort++
        if (seen.pauses === seen.goneAt) gone.abort()
        return undefined
      })
    },
  }
  const engine = createEngine({
    store: createMemoryStore(),
    baseUrl: BASE,
    clock: createManualClock(),
    hmac: nodeHmac,
    exchangeLog: 1000,
    turns,
  })
  const [secret] = await engine.start()
  const send = (path: string, token: string, body: unknown, init: RequestInit = {}) =>
    engine.handle(
      new Request(`${BASE}/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        ...init,
      }),
    )
  const minted = await send(
    'auth/create',
    secret!,
    {},
    {
      headers: {
        authorization: `Bearer ${secret!}`,
        'content-type': 'application/vnd.service+json',
        accept: 'text/plain',
      },
      body: JSON.stringify([['$$', 'abilities', ['type.string', 'core']]]),
    },
  )
  expect(minted.status).toBe(200)
  const token = await minted.text()
  for (let i = 0; i < 20; i++) {
    const reversed = await engine.handle(
      new Request(`${BASE}/type/string/reverse`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
        body: `word ${i}`,
      }),
    )
    expect(reversed.status).toBe(200)
  }
  return { secret: secret!, token, send, seen, gone }
}

describe('least privilege over the wire', () => {
  it("takes its account's turns between its steps", async () => {
    const { secret, send, seen } = await counted()
    const before = { ...seen }
    const answer = await send('_account/least-privilege', secret, {})
    expect(answer.status).toBe(200)
    const report = (await answer.json()) as LeastPrivilegeReport
    expect(report.tokens[0]?.proof?.status).toBe('proven')
    expect(seen.admitted).toBe(before.admitted + 1)
    // A turn before each replayed call at least (20 distinct calls, under two tokens).
    expect(seen.pauses - before.pauses).toBeGreaterThanOrEqual(40)
  })

  it('stops at the next turn once its client has gone', async () => {
    const { secret, send, seen, gone } = await counted()
    // The client goes away at the fifth turn of the request.
    seen.goneAt = seen.pauses + 5
    const answer = await send('_account/least-privilege', secret, {}, { signal: gone.signal })
    expect(answer.status).toBe(499)
    expect(seen.pauses).toBeGreaterThanOrEqual(seen.goneAt)
    expect(seen.afterAbort).toBeLessThanOrEqual(1)
  })
})
