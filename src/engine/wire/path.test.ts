import { describe, expect, it } from 'vitest'
import { routeOf } from './path'

describe('routeOf', () => {
  it('routes calls and the control plane below the base path', () => {
    expect(routeOf('/core/ping', '')).toEqual({ kind: 'call', path: 'core/ping' })
    expect(routeOf('/core/ping/', '')).toEqual({ kind: 'call', path: 'core/ping' })
    expect(routeOf('/', '')).toEqual({ kind: 'call', path: '' })
    expect(routeOf('/_account/export', '')).toEqual({ kind: 'control', path: 'export' })
    expect(routeOf('/_account', '')).toEqual({ kind: 'control', path: '' })
    expect(routeOf('/v1/_account/secrets/x/roll', '/v1')).toEqual({
      kind: 'control',
      path: 'secrets/x/roll',
    })
    expect(routeOf('/v2/core/ping', '/v1')).toEqual({ kind: 'outside' })
    expect(routeOf('/v1x/core/ping', '/v1')).toEqual({ kind: 'outside' })
  })

  it.each([
    '//_account/export',
    '///_account/export',
    '/_account//export',
    '/core//ping',
    '/v1//_account/export',
    '/./_account/export',
    '/x/../_account/export',
    '/%2e%2e/_account/export',
    '/_account%2Fexport',
    '/_account%2fexport',
    '/_account%5Cexport',
    '/_account\\export',
    '/%5Faccount/export',
    '/%5faccount/export',
  ])('refuses %s as ambiguous', (pathname) => {
    const base = pathname.startsWith('/v1') ? '/v1' : ''
    expect(routeOf(pathname, base).kind).toBe('ambiguous')
  })
})
