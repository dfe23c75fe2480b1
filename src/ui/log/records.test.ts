import { describe, expect, it } from 'vitest'
import type { ExchangeRecord } from '../../engine'
import type { ExchangePage } from './api'
import { matches, mergePage, pollAfter } from './records'

const record = (id: number, status = 200, endpoint: string | null = 'core.ping') =>
  ({
    id,
    response: { status },
    request: { url: 'https://api.example.test/x/y' },
    trace: { endpoint },
  }) as ExchangeRecord

const page = (...ids: number[]): ExchangePage => ({
  capacity: 3,
  exchanges: ids.map((id) => record(id)),
})

describe('mergePage', () => {
  it('puts newer records on top, keeps the ones held, and stops at the capacity', () => {
    const known = page(3, 2, 1)
    const merged = mergePage(known, page(5, 4, 3))
    expect(merged.exchanges.map((r) => r.id)).toEqual([5, 4, 3])
    expect(merged.exchanges[2]).toBe(known.exchanges[0])
  })

  it('answers the same list when nothing is new', () => {
    const known = page(2, 1)
    expect(mergePage(known, page(2))).toBe(known)
  })

  it('replaces the list when the newest record held is gone: the log was emptied elsewhere', () => {
    expect(mergePage(page(7, 6), page(1)).exchanges.map((r) => r.id)).toEqual([1])
    expect(mergePage(page(7, 6), page()).exchanges).toEqual([])
  })

  it('asks again for the newest record held, to notice that', () => {
    expect(pollAfter(undefined)).toBeUndefined()
    expect(pollAfter(page())).toBeUndefined()
    expect(pollAfter(page(7, 6))).toBe(6)
  })
})

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
