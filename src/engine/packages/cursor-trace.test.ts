import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'
import type { ExchangeRecord } from '../operator/exchange-log'

let h: Harness

beforeEach(async () => {
  h = await createHarness({ exchangeLog: 20 })
  for (const key of ['a', 'b', 'c']) await h.call('keyv.set', { body: key, query: { value: '1' } })
})

async function scanTrace(token: string, query: Record<string, string>) {
  const answer = await h.call('keyv.scan', { token, query })
  const response = await h.control('exchanges')
  const [record] = (response.body as { exchanges: ExchangeRecord[] }).exchanges
  return { answer, call: record!.trace.calls[0]! }
}

async function firstCursor(): Promise<string> {
  const page = await h.call('keyv.scan', { query: { count: '1' } })
  return page.headers.get('x-cursor')!
}

describe('a refused cursor', () => {
  it('reads "cursor is invalid" on the wire, and the trace says its secret was rolled, and when', async () => {
    const cursor = await firstCursor()
    const rolledAt = h.clock.now() / 1000
    const replacement = await h.engine.account.rollSecret(h.secret.id)
    const { answer, call } = await scanTrace(replacement.key, { count: '1', cursor })
    expect([answer.status, answer.text]).toEqual([400, 'cursor is invalid'])
    expect(call).toMatchObject({
      endpoint: 'keyv.scan',
      decision: 'failed',
      code: 'invalid_cursor',
    })
    expect(call.explanation).toBe(
      `cursor is invalid: its secret \`${h.secret.id}' was rolled; the cursor died with it at ${new Date(
        rolledAt * 1000,
      )
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC')} (virtual clock)`,
    )
  })

  it('says in the trace when it continues another scan, or was changed', async () => {
    const cursor = await firstCursor()
    const other = await scanTrace(h.secret.key, { count: '1', cursor, prefix: 'b' })
    expect(other.answer.text).toBe('cursor is invalid')
    expect(other.call.explanation).toBe(
      "cursor is invalid: it continues a scan of bucket `default' with prefix `', not bucket `default' with prefix `b': repeat the same call with it",
    )
    const changed = await scanTrace(h.secret.key, {
      count: '1',
      cursor: `${cursor.startsWith('A') ? 'B' : 'A'}${cursor.slice(1)}`,
    })
    expect(changed.answer.text).toBe('cursor is invalid')
    expect(changed.call.explanation).toMatch(/^cursor is invalid: its signature does not verify/)
  })
})
