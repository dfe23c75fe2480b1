import { describe, expect, it } from 'vitest'
import type { EndpointInfo } from '../shared/catalogue'
import {
  covers,
  describeAbility,
  holdsAuthCreate,
  insecureReach,
  keyvAbility,
  namesSomething,
  parseAbility,
  type AbilityWorld,
} from './abilities'

const endpoint = (name: string, insecure = false): EndpointInfo => ({
  name,
  summary: '',
  insecure,
  input: null,
  args: {},
})

const world: AbilityWorld = {
  endpoints: [
    endpoint('type.string.reverse'),
    endpoint('keyv.get'),
    endpoint('auth.create', true),
    endpoint('shop.create', true),
  ],
  packages: ['auth', 'keyv', 'shop', 'type', 'type.string'],
  procedures: ['report'],
  serviceName: 'shop',
}

describe('abilities', () => {
  it('builds key-value limits in URL-encoded query form', () => {
    expect(keyvAbility('keyv', { bucket: 'users' })).toBe('keyv?bucket=users')
    expect(keyvAbility('keyv.get', { bucket: 'users', prefix: 'alice/' })).toBe(
      'keyv.get?bucket=users&prefix=alice%2F',
    )
    expect(keyvAbility('keyv', {})).toBe('keyv')
    expect(describeAbility('keyv.get?bucket=users&prefix=alice%2F')).toBe(
      'keyv.get, only bucket “users”, keys starting with “alice/”',
    )
  })

  it('refuses what the engine refuses, saying why', () => {
    expect(parseAbility('type').ok).toBe(true)
    expect(parseAbility('keyv?bucket=a').ok).toBe(true)
    for (const raw of [
      '',
      'type string',
      'type..string',
      '.type',
      'type?bucket=a',
      'keyv?',
      'keyv?bucket=',
      'keyv?bucket=a&bucket=b',
      'keyv?colour=red',
      'x'.repeat(257),
    ]) {
      expect(parseAbility(raw), raw).toMatchObject({ ok: false })
    }
    expect(parseAbility('type string')).toMatchObject({
      problem: expect.stringContaining('no spaces or empty segments'),
    })
  })

  it('covers by whole segments, and one procedure below lib', () => {
    expect(covers('type', 'type.string.reverse')).toBe(true)
    expect(covers('types', 'type.string.reverse')).toBe(false)
    expect(covers('typ', 'type.string.reverse')).toBe(false)
    expect(covers('lib.foo', 'lib.foo.admin')).toBe(false)
    expect(covers('lib', 'lib.foo.admin')).toBe(true)
  })

  it('knows what names something, and what is insecure and why', () => {
    expect(namesSomething('type.string', world)).toBe(true)
    expect(namesSomething('types', world)).toBe(false)
    expect(namesSomething('lib', world)).toBe(true)
    expect(namesSomething('lib.report', world)).toBe(true)
    expect(namesSomething('lib.other', world)).toBe(false)
    expect(insecureReach('type', world)).toEqual([])
    expect(insecureReach('auth', world)[0]?.reason).toMatch(
      /mint authorizations with any abilities/,
    )
    expect(insecureReach('shop', world)[0]?.reason).toMatch(/change stored procedures/)
    expect(holdsAuthCreate(['type', 'auth'])).toBe(true)
    expect(holdsAuthCreate(['type', 'keyv.get'])).toBe(false)
  })
})

describe('parseAbility, on limits the engine refuses', () => {
  it.each([
    ['keyv??bucket=users', /more than one `\?'/],
    ['keyv?bucket=users&', /stray `&'/],
    ['keyv?bucket=users&&prefix=a', /stray `&'/],
    ['keyv?bucket=users;prefix=x', /must percent-encode/],
    ['keyv?bucket=%ZZ', /must percent-encode/],
    ['keyv?bucket=a b', /must percent-encode/],
  ])('refuses %s before sending', (raw, problem) => {
    const checked = parseAbility(raw)
    expect(checked.ok).toBe(false)
    expect(checked.ok ? '' : checked.problem).toMatch(problem)
  })

  it('takes what the composer writes', () => {
    const written = keyvAbility('keyv.get', { bucket: 'my users', prefix: 'a/b%' })
    expect(parseAbility(written)).toMatchObject({
      ok: true,
      ability: { bucket: 'my users', prefix: 'a/b%' },
    })
  })
})
