import { describe, expect, it } from 'vitest'
import { createHarness } from '../../testing/engine-harness'
import { MAX_SECRETS } from '../account/secrets'
import {
  createJournal,
  exchangeSize,
  MAX_JOURNAL_BYTES,
  MAX_LOGGED_BODY_BYTES,
} from './exchange-log'
import type { ExchangeRecord } from './exchange-log'
import { MAX_FAULT_RULES } from './fault-rule'
import type { StrictEntry } from './strict'

/** Everything one account can grow, bounded (decision 071). */

describe("an account's journal", () => {
  it('holds at most its byte budget, the oldest gone first, the newest whole, bodies cut and said so', async () => {
    const h = await createHarness({ exchangeLog: 10_000 })
    const body = 'x'.repeat(100_000)
    for (let i = 0; i < 60; i++) {
      const answer = await h.call('core.echo', { body: `${i} ${body}`, contentType: 'text/plain' })
      expect(answer.status).toBe(200)
    }
    const { body: journal } = await h.control('exchanges')
    const { capacity, maxBytes, exchanges } = journal as {
      capacity: number
      maxBytes: number
      exchanges: ExchangeRecord[]
    }
    expect([capacity, maxBytes]).toEqual([10_000, MAX_JOURNAL_BYTES])
    // Full to its budget and no further (bodies of x's are as long in JSON as kept), fewer than
    // were sent kept.
    const held = JSON.stringify(exchanges).length
    expect(held).toBeLessThanOrEqual(MAX_JOURNAL_BYTES * 1.1)
    expect(held).toBeGreaterThan(MAX_JOURNAL_BYTES * 0.8)
    expect(exchanges.length).toBeLessThan(60)
    const [newest] = exchanges
    expect(newest!.request.body).toMatchObject({
      bytes: 100_003,
      truncated: true,
      data: `59 ${body}`.slice(0, MAX_LOGGED_BODY_BYTES),
    })
    // Ids stay in order with none missing among those kept: the oldest went, not others.
    const ids = exchanges.map(({ id }) => id)
    expect(ids).toEqual(ids.map((_, i) => ids[0]! - i))
  })
})

describe('a journal in this process', () => {
  it('lets the oldest go past its bytes, keeps the newest however large, and counts what it let go', () => {
    const record = (size: number) =>
      JSON.parse(
        JSON.stringify({
          startedAt: 0,
          at: 0,
          durationMs: 0,
          request: { method: 'POST', url: 'x'.repeat(size), headers: [], body: null },
          response: { status: 200, headers: [], body: null },
          trace: { endpoint: null, credential: null, calls: [], droppedCalls: 0, outcome: null },
        }),
      )
    const journal = createJournal(100, 1000)
    const size = exchangeSize(record(100))
    for (let i = 0; i < 10; i++) journal.add(record(100))
    expect(journal.list().map(({ id }) => id)).toEqual(
      Array.from({ length: Math.floor(1000 / size) }, (_, i) => 10 - i),
    )
    journal.add(record(5000))
    expect(journal.list().map(({ id }) => id)).toEqual([11])
    journal.add(record(100))
    expect(journal.list().map(({ id }) => id)).toEqual([12])
    journal.clear()
    for (let i = 0; i < 10; i++) journal.add(record(100))
    expect(journal.list()).toHaveLength(Math.floor(1000 / size))
    expect(journal.held).toEqual({
      exchanges: Math.floor(1000 / size),
      bytes: Math.floor(1000 / size) * size,
    })
  })

  it('counts what it holds after a restore drops the newest, with the oldest let go before', () => {
    const journal = createJournal(100, 1000)
    const exchange = {
      startedAt: 0,
      at: 0,
      durationMs: 0,
      request: { method: 'POST', url: 'x'.repeat(100), headers: [], body: null },
      response: { status: 200, headers: [], body: null },
      trace: { endpoint: null, credential: null, calls: [], droppedCalls: 0, outcome: null },
    } as unknown as Parameters<typeof journal.add>[0]
    const size = exchangeSize(exchange)
    const fits = Math.floor(1000 / size)
    for (let i = 0; i < fits + 3; i++) journal.add(exchange)
    journal.dropAfter(fits + 1)
    expect(journal.list().map(({ id }) => id)).toEqual(
      Array.from({ length: fits - 2 }, (_, i) => fits + 1 - i),
    )
    expect(journal.held).toEqual({ exchanges: fits - 2, bytes: (fits - 2) * size })
    for (let i = 0; i < 3; i++) journal.add(exchange)
    expect(journal.list()).toHaveLength(fits)
  })
})

describe("an account's secrets", () => {
  it(`are at most ${MAX_SECRETS}: past it, making or rolling one is a 403 naming the limit`, async () => {
    const h = await createHarness()
    for (let held = 1; held < MAX_SECRETS; held++) {
      expect((await h.control('secrets', {})).status).toBe(200)
    }
    const refusal = {
      error: {
        message: `the account holds ${MAX_SECRETS} secrets, live and rolled, the most it may (${MAX_SECRETS}): reset the account (POST /_account/reset) to go back to its starting secrets`,
      },
    }
    expect(await h.control('secrets', {})).toEqual({ status: 403, body: refusal })
    expect(await h.control(`secrets/${h.secret.id}/roll`, {})).toEqual({
      status: 403,
      body: refusal,
    })
    // The secret still works, and a reset makes room.
    expect((await h.call('core.ping')).status).toBe(200)
    expect((await h.control('reset', {})).status).toBe(200)
    expect((await h.control('secrets', {})).status).toBe(200)
  })

  it('are at most as many in an import', async () => {
    const h = await createHarness()
    const secrets = Array.from({ length: MAX_SECRETS + 1 }, (_, i) => ({
      id: `sec_${i}`,
      key: `imported-key-${i}`,
      createdAt: 0,
      expiresAt: null,
      rolledTo: null,
    }))
    const exported = (await h.control('export')).body as object
    const imported = await h.control('import', { ...exported, secrets })
    expect(imported.status).toBe(400)
    expect(JSON.stringify(imported.body)).toContain(
      `holds ${MAX_SECRETS + 1} secrets, more than an account keeps (${MAX_SECRETS})`,
    )
  })
})

describe("an account's fault rules", () => {
  it(`are at most ${MAX_FAULT_RULES} set at once: past it a 403 naming the limit`, async () => {
    const h = await createHarness()
    for (let i = 0; i < MAX_FAULT_RULES; i++) {
      expect(
        (await h.control('faults', { status: 503, endpoint: `lib.nothing_${i}` })).status,
      ).toBe(200)
    }
    expect(await h.control('faults', { status: 503 })).toEqual({
      status: 403,
      body: {
        error: {
          message: `the account has ${MAX_FAULT_RULES} fault rules set, the most it may: clear some (POST /_account/faults/<id>/clear, or POST /_account/faults/clear) first`,
        },
      },
    })
    // One used up makes room again.
    await h.control('faults/clear', {})
    expect((await h.control('faults', { status: 503, once: true })).status).toBe(200)
    expect((await h.call('core.ping')).status).toBe(503)
    for (let i = 0; i < MAX_FAULT_RULES; i++) {
      expect(
        (await h.control('faults', { status: 503, endpoint: `lib.nothing_${i}` })).status,
      ).toBe(200)
    }
  })
})

describe("strict mode's report", () => {
  it('keeps each request bounded: its URL cut, at most ten unknown markers named', async () => {
    const h = await createHarness({ strict: true })
    const markers = Array.from({ length: 300 }, (_, i) => [
      String.fromCodePoint(0x2200 + i).repeat(2),
      1,
    ])
    const query = `?pad=${'p'.repeat(10_000)}`
    const answer = await h.call('core.echo', {
      body: JSON.stringify([['>>', markers]]),
      contentType: h.vnd,
      query: { pad: 'p'.repeat(10_000) },
    })
    expect(answer.status).toBe(400)
    const { requests } = (await h.control('strict')).body as { requests: StrictEntry[] }
    const [entry] = requests
    expect(entry!.deviations).toHaveLength(11)
    expect(entry!.deviations.at(-1)).toBe('and 290 more markers the tuple language does not have')
    expect(entry!.url.length).toBeLessThan(2100)
    expect(entry!.url).toMatch(
      new RegExp(`… \\(${h.baseUrl.length + '/core/echo'.length + query.length} characters\\)$`),
    )
  })
})
