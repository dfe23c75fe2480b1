import { describe, expect, it } from 'vitest'
import * as engine from '../../engine/settings'
import { DEFAULT_BASE_URL, DEFAULT_SERVICE_NAME } from '../../engine/settings'
import * as page from './config'
import { databaseName, parseConfig } from './config'

describe('the defaults the playground restates', () => {
  it("are the engine's", () => {
    expect(page.DEFAULT_BASE_URL).toBe(engine.DEFAULT_BASE_URL)
    expect(page.DEFAULT_SERVICE_NAME).toBe(engine.DEFAULT_SERVICE_NAME)
    expect(String(page.SERVICE_NAME_PATTERN)).toBe(String(engine.SERVICE_NAME_PATTERN))
  })
})

describe('parseConfig', () => {
  it('falls back to the engine defaults', () => {
    expect(parseConfig('')).toEqual({
      ok: true,
      config: { baseUrl: DEFAULT_BASE_URL, serviceName: DEFAULT_SERVICE_NAME },
    })
  })

  it('reads baseUrl and serviceName from the query string', () => {
    expect(parseConfig('?baseUrl=https://other.example.test/v2&serviceName=proc')).toEqual({
      ok: true,
      config: { baseUrl: 'https://other.example.test/v2', serviceName: 'proc' },
    })
  })

  it('drops trailing slashes from the base URL', () => {
    expect(parseConfig('?baseUrl=https%3A%2F%2Fapi.example.test%2Fv1%2F%2F')).toMatchObject({
      config: { baseUrl: 'https://api.example.test/v1' },
    })
    expect(parseConfig('?baseUrl=https://api.example.test/')).toMatchObject({
      config: { baseUrl: 'https://api.example.test' },
    })
  })

  it.each([
    ['not a URL', 'not a url'],
    ['not http', 'ftp://api.example.test'],
    ['with credentials', 'https://user:pass@api.example.test'],
    ['with a query', 'https://api.example.test/?x=1'],
    ['with a fragment', 'https://api.example.test/#top'],
  ])('rejects a base URL %s', (_, baseUrl) => {
    const result = parseConfig(`?${new URLSearchParams({ baseUrl })}`)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error).toMatch(/^Invalid baseUrl/)
  })

  it("rejects a base URL on the playground's own origin", () => {
    const result = parseConfig('?baseUrl=http://127.0.0.1:4173/api', 'http://127.0.0.1:4173')
    expect(result).toEqual({
      ok: false,
      error: `Invalid baseUrl "http://127.0.0.1:4173/api": it must not be the playground's own origin.`,
    })
    expect(parseConfig('?baseUrl=https://api.example.test', 'http://127.0.0.1:4173').ok).toBe(true)
  })

  it.each(['', 'Proc', '1proc', 'pro c', 'a'.repeat(33), 'proc+json'])(
    'rejects the service name %j',
    (name) => {
      const result = parseConfig(`?${new URLSearchParams({ serviceName: name })}`)
      expect(result.ok).toBe(false)
      expect(!result.ok && result.error).toMatch(/^Invalid serviceName/)
    },
  )
})

describe('databaseName', () => {
  it('differs between configurations', () => {
    const a = databaseName({ serviceName: 'service', baseUrl: 'https://api.example.test' })
    expect(databaseName({ serviceName: 'proc', baseUrl: 'https://api.example.test' })).not.toBe(a)
    expect(
      databaseName({ serviceName: 'service', baseUrl: 'https://api.example.test/v2' }),
    ).not.toBe(a)
  })
})
