import { describe, expect, it } from 'vitest'
import type { ExchangeRecord } from '../../engine'
import { harFileName, toHar } from './har'

const record = (id: number, overrides: Partial<ExchangeRecord['request']> = {}) =>
  ({
    id,
    startedAt: Date.UTC(2030, 0, 1, 0, 0, id),
    at: Date.UTC(2030, 0, 1) / 1000 + id,
    durationMs: 4.5,
    request: {
      method: 'POST',
      url: 'https://api.example.test/core/echo?a=1&a=2',
      headers: [['content-type', 'application/vnd.service+msgpack']],
      body: { encoding: 'base64', data: 'kZKiPj4B', bytes: 6, truncated: false },
      ...overrides,
    },
    response: { status: 204, headers: [], body: null },
    trace: {
      endpoint: 'core.echo',
      credential: null,
      calls: [],
      droppedCalls: 0,
      outcome: { status: 204, code: null, message: null },
    },
  }) as ExchangeRecord

describe('toHar', () => {
  it('lists entries oldest first, with times, query strings and base64 bodies marked', () => {
    const har = toHar([record(2), record(1)], 'service')
    expect(har.log.entries.map((entry) => entry._exchangeId)).toEqual([1, 2])
    const [first] = har.log.entries
    expect(first!.startedDateTime).toBe('2030-01-01T00:00:01.000Z')
    expect(first!._virtualTime).toBe('2030-01-01T00:00:01.000Z')
    expect(first!.time).toBe(4.5)
    expect(first!.request.queryString).toEqual([
      { name: 'a', value: '1' },
      { name: 'a', value: '2' },
    ])
    expect(first!.request.postData).toEqual({
      mimeType: 'application/vnd.service+msgpack',
      text: 'kZKiPj4B',
      _encoding: 'base64',
    })
    expect(first!.response).toMatchObject({
      status: 204,
      statusText: 'No Content',
      content: { size: 0, mimeType: '' },
    })
  })

  it('says when the log cut a body, and leaves out a body never sent', () => {
    const cut = record(1, {
      headers: [],
      body: { encoding: 'text', data: 'abc', bytes: 70_000, truncated: true },
    })
    expect(toHar([cut], 'service').log.entries[0]!.request).toMatchObject({
      postData: { mimeType: '', text: 'abc', comment: 'cut at 3 of 70000 bytes' },
      bodySize: 70_000,
    })
    const none = toHar([record(1, { body: null })], 'service').log.entries[0]!.request
    expect(none.postData).toBeUndefined()
    expect(none.bodySize).toBe(0)
  })

  it('names the file after the service and the moment', () => {
    expect(harFileName('svc', new Date(Date.UTC(2030, 0, 1)))).toBe(
      'svc-exchanges-2030-01-01T00-00-00-000Z.har',
    )
  })
})
