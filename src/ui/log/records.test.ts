import { describe, expect, it } from 'vitest'
import type { ExchangeRecord } from '../../engine'
import { matches } from './records'

const record = (id: number, status = 200, endpoint: string | null = 'core.ping') =>
  ({
    id,
    response: { status },
    request: { url: 'https://api.example.test/x/y' },
    trace: { endpoint },
  }) as ExchangeRecord

describe('matches', () => {
  it('filters by status class, by one status, and by text in the endpoint', () => {
    const refused = record(1, 401, 'keyv.get')
    expect(matches(refused, { status: '4xx', endpoint: '' })).toBe(true)
    expect(matches(refused, { status: '2xx', endpoint: '' })).toBe(false)
    expect(matches(refused, { status: '401', endpoint: 'KEYV' })).toBe(true)
    expect(matches(refused, { status: '404', endpoint: '' })).toBe(false)
    expect(matches(refused, { status: '', endpoint: 'auth' })).toBe(false)
    expect(matches(record(2, 404, null), { status: '', endpoint: '/x/y' })).toBe(true)
  })
})
