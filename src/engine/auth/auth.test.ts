import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'
import { covers, parseAbility } from './abilities'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})

const denied = (name: string) =>
  `authorization does not have the ability to access service \`${name}'`

describe('authentication', () => {
  it('refuses a missing token, a malformed header and an unknown token with 401', async () => {
    const missing = await h.call('core.ping', { token: null })
    expect([missing.status, missing.text]).toEqual([401, 'authorization is missing'])
    const basic = await h.call('core.ping', {
      token: null,
      headers: { authorization: 'Basic abc' },
    })
    expect([basic.status, basic.text]).toEqual([
      401,
      "the authorization header must be `bearer <token>'",
    ])
    const unknown = await h.call('core.ping', { token: 'not-a-secret-of-this-account' })
    expect([unknown.status, unknown.text]).toEqual([401, 'authorization is invalid'])
  })

  it('treats a bearer scheme with no token as a missing token', async () => {
    for (const authorization of ['bearer', 'Bearer   ', '  ']) {
      const response = await h.call('core.ping', { token: null, headers: { authorization } })
      expect([authorization, response.status, response.text]).toEqual([
        authorization,
        401,
        'authorization is missing',
      ])
    }
  })

  it('reads the bearer scheme case-insensitively', async () => {
    const upper = await h.call('core.ping', {
      token: null,
      headers: { authorization: `Bearer ${h.secret.key}` },
    })
    expect(upper.text).toBe('true')
    const shout = await h.call('core.ping', {
      token: null,
      headers: { authorization: `BEARER  ${h.secret.key}` },
    })
    expect(shout.text).toBe('true')
  })

  it('lets a secret reach every endpoint', async () => {
    for (const name of h.engine.registry.list().map((endpoint) => endpoint.name)) {
      const response = await h.call(name, { contentType: h.vnd, body: '[]' })
      expect(response.status, name).not.toBe(401)
    }
  })

  it('refuses an authorization changed in any single character', async () => {
    const token = await h.authorize({ abilities: ['core'] })
    expect((await h.call('core.ping', { token })).text).toBe('true')
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.'
    for (let index = 0; index < token.length; index++) {
      const original = token[index]!
      const swapped = alphabet[(alphabet.indexOf(original) + 1) % alphabet.length]!
      const forged = token.slice(0, index) + swapped + token.slice(index + 1)
      const response = await h.call('core.ping', { token: forged })
      expect([index, response.status, response.text]).toEqual([
        index,
        401,
        'authorization is invalid',
      ])
    }
    for (const forged of [
      token + 'A',
      token.slice(0, -1),
      token.replace('.', '..'),
      `${token}.x`,
    ]) {
      expect((await h.call('core.ping', { token: forged })).status).toBe(401)
    }
  })

  it('refuses an authorization signed by another account', async () => {
    const other = await createHarness()
    const token = await other.authorize({ abilities: ['core'] })
    expect((await h.call('core.ping', { token })).text).toBe('authorization is invalid')
  })
})

describe('abilities', () => {
  it('grant packages and endpoints by whole dotted segments', () => {
    expect(covers('type', 'type.string.reverse')).toBe(true)
    expect(covers('type.string', 'type.string.reverse')).toBe(true)
    expect(covers('type.string.reverse', 'type.string.reverse')).toBe(true)
    expect(covers('type', 'types.x')).toBe(false)
    expect(covers('type.str', 'type.string.reverse')).toBe(false)
    expect(covers('type.string.reverse', 'type.string')).toBe(false)
  })

  it('limit an authorization to what they name, on the wire', async () => {
    const token = await h.authorize({ abilities: ['type.string', 'keyv.get'] })
    expect((await h.call('type.string.upcase', { token, body: 'abc' })).text).toBe('ABC')
    expect((await h.call('keyv.get', { token, body: 'k' })).text).toBe('null')
    const number = await h.tuples(
      'type.number.add',
      [
        ['>>', 1],
        ['$$', 'value', 2],
      ],
      { token },
    )
    expect(number.status).toBe(401)
    expect(number.json()).toEqual([['!!', { message: denied('type.number.add') }]])
    const set = await h.call('keyv.set', { token, body: 'k', query: { value: '1' } })
    expect([set.status, set.text]).toEqual([401, denied('keyv.set')])
    const ping = await h.call('core.ping', { token })
    expect([ping.status, ping.text]).toEqual([401, denied('core.ping')])
  })

  it('accept a name that exists nowhere, granting nothing', async () => {
    const token = await h.authorize({ abilities: ['string'] })
    expect((await h.call('type.string.reverse', { token, body: 'a' })).status).toBe(401)
  })

  it.each([
    [''],
    ['type..string'],
    ['type string'],
    ['.type'],
    ['type.'],
    ['type?bucket=a'],
    ['keyv?color=red'],
    ['keyv?'],
    ['keyv?bucket'],
    ['keyv.get?bucket=&prefix=a'],
    ['keyv?prefix='],
    ['keyv??bucket=users'],
    ['keyv?bucket=users&'],
    ['keyv?&bucket=users'],
    ['keyv?bucket=users&&prefix=a'],
    ['keyv?bucket=%ZZ'],
    ['keyv?bucket=%C3'],
    ['keyv?bucket=users;prefix=x'],
    ['keyv?bucket=a=b'],
  ])('refuse the malformed ability %j with a 400', async (ability) => {
    const response = await h.tuples('auth.create', [['$$', 'abilities', [ability]]])
    expect(response.status).toBe(400)
    expect((response.json() as [[string, { message: string }]])[0][1].message).toContain(
      JSON.stringify(ability),
    )
  })

  it('refuse an ability longer than 256 characters, or more than 4096 characters in all', async () => {
    const long = await h.tuples('auth.create', [['$$', 'abilities', [`type.${'a'.repeat(252)}`]]], {
      accept: 'text/plain',
    })
    expect([long.status, long.text]).toEqual([
      400,
      'invalid ability "type.aaaaaaaaaaaaaaaaaaaaaaaaaaa"…: longer than 256 characters',
    ])
    const longest = `type.${'a'.repeat(250)}`
    expect(await h.authorize({ abilities: [longest] })).toContain('.')
    const many = Array.from({ length: 17 }, () => longest)
    const all = await h.tuples('auth.create', [['$$', 'abilities', many]], { accept: 'text/plain' })
    expect([all.status, all.text]).toEqual([
      400,
      "invalid argument `abilities' for `auth.create' (at most 4096 characters in all)",
    ])
    const token = await h.authorize({ abilities: many.slice(0, 16) })
    expect(token.length).toBeLessThan(8192)
    expect((await h.call('core.ping', { token })).status).toBe(401)
  })

  it('refuse an empty list and a list that is not of strings', async () => {
    const empty = await h.tuples('auth.create', [['$$', 'abilities', []]], { accept: 'text/plain' })
    expect(empty.text).toBe(
      "invalid argument `abilities' for `auth.create' (must name at least one ability)",
    )
    const numbers = await h.tuples('auth.create', [['$$', 'abilities', [1]]], {
      accept: 'text/plain',
    })
    expect(numbers.text).toBe(
      "invalid argument `abilities' for `auth.create' (given value could not be coerced into the defined type)",
    )
    const none = await h.tuples('auth.create', [], { accept: 'text/plain' })
    expect(none.text).toBe("invalid argument `abilities' for `auth.create' (is required)")
  })

  it('read abilities from the query string, as JSON or comma-separated', async () => {
    const response = await h.call('auth.create', { query: { abilities: 'type.string,core.ping' } })
    const token = response.text
    expect((await h.call('core.ping', { token })).text).toBe('true')
    const json = await h.call('auth.create', { query: { abilities: '["core"]' } })
    expect((await h.call('core.echo', { token: json.text, body: 'x' })).text).toBe('x')
  })
})

describe('insecure abilities', () => {
  it('are read off the endpoints that are flagged insecure', () => {
    expect([...h.engine.registry.insecure].sort()).toEqual([
      'auth.create',
      'service.create',
      'service.delete',
      'service.deploy',
      'service.update',
    ])
  })

  it.each([
    ['auth.create'],
    ['auth'],
    ['service.update'],
    ['service.create'],
    ['service.delete'],
    ['service'],
  ])('refuses %s without insecure: true', async (ability) => {
    const response = await h.tuples('auth.create', [['$$', 'abilities', ['core', ability]]], {
      accept: 'text/plain',
    })
    expect([response.status, response.text]).toEqual([
      400,
      `insecure abilities \`${ability}' are only granted with \`insecure: true'`,
    ])
  })

  it('grants them with insecure: true, and such an authorization can mint any abilities', async () => {
    const minter = await h.authorize({ abilities: ['auth.create'], insecure: true })
    expect((await h.call('core.ping', { token: minter })).status).toBe(401)
    const child = await h.authorize({ abilities: ['keyv', 'core'] }, minter)
    expect((await h.call('core.ping', { token: child })).text).toBe('true')
    const grandchild = await h.authorize({ abilities: ['auth'], insecure: true }, minter)
    expect(
      (await h.call('auth.create', { token: grandchild, query: { abilities: 'type' } })).status,
    ).toBe(200)
  })

  it('takes insecure from the query string as text', async () => {
    const refused = await h.call('auth.create', { query: { abilities: 'auth', insecure: 'false' } })
    expect(refused.status).toBe(400)
    const granted = await h.call('auth.create', { query: { abilities: 'auth', insecure: 'true' } })
    expect(granted.status).toBe(200)
    const garbled = await h.call('auth.create', { query: { abilities: 'core', insecure: 'yes' } })
    expect(garbled.text).toBe(
      "invalid argument `insecure' for `auth.create' (given value could not be coerced into the defined type)",
    )
  })
})

describe('expiry and ttl', () => {
  it('makes an authorization unusable once its ttl has passed', async () => {
    const token = await h.authorize({ abilities: ['core'], ttl: 60 })
    h.clock.advance(59_000)
    expect((await h.call('core.ping', { token })).text).toBe('true')
    h.clock.advance(1_000)
    const late = await h.call('core.ping', { token })
    expect([late.status, late.text]).toEqual([401, 'authorization is expired'])
  })

  it('makes an authorization unusable at its expiry, a Unix time in seconds', async () => {
    const now = h.clock.now() / 1000
    const token = await h.authorize({ abilities: ['core'], expiry: now + 30 })
    h.clock.advance(29_000)
    expect((await h.call('core.ping', { token })).status).toBe(200)
    h.clock.advance(1_000)
    expect((await h.call('core.ping', { token })).text).toBe('authorization is expired')
  })

  it('lets the earlier of expiry and ttl win', async () => {
    const now = h.clock.now() / 1000
    const ttlFirst = await h.authorize({ abilities: ['core'], expiry: now + 100, ttl: 10 })
    const expiryFirst = await h.authorize({ abilities: ['core'], expiry: now + 10, ttl: 100 })
    h.clock.advance(10_000)
    expect((await h.call('core.ping', { token: ttlFirst })).status).toBe(401)
    expect((await h.call('core.ping', { token: expiryFirst })).status).toBe(401)
  })

  it('never expires an authorization given neither', async () => {
    const token = await h.authorize({ abilities: ['core'] })
    h.clock.advance(10 * 365 * 86400_000)
    expect((await h.call('core.ping', { token })).status).toBe(200)
  })

  it('refuses an expiry not in the future, a ttl not above zero and malformed values', async () => {
    const now = h.clock.now() / 1000
    const past = await h.tuples(
      'auth.create',
      [
        ['$$', 'abilities', ['core']],
        ['$$', 'expiry', now],
      ],
      { accept: 'text/plain' },
    )
    expect([past.status, past.text]).toMatchObject([
      400,
      expect.stringContaining("invalid argument `expiry'"),
    ])
    const zero = await h.call('auth.create', { query: { abilities: 'core', ttl: '0' } })
    expect(zero.text).toMatch(/^invalid argument `ttl' for `auth.create' \(must be from 1 to /)
    const words = await h.call('auth.create', { query: { abilities: 'core', expiry: 'tomorrow' } })
    expect([words.status, words.text]).toEqual([
      400,
      "invalid argument `expiry' for `auth.create' (given value could not be coerced into the defined type)",
    ])
  })
})

describe('key-value limits', () => {
  it('parses bucket and prefix limits on keyv abilities only', () => {
    expect(parseAbility('keyv.get?bucket=users&prefix=alice%2F')).toEqual({
      raw: 'keyv.get?bucket=users&prefix=alice%2F',
      name: 'keyv.get',
      bucket: 'users',
      prefix: 'alice/',
    })
    expect(() => parseAbility('keyv?bucket=a&bucket=b')).toThrow(/more than once/)
    // As the playground writes limits (URLSearchParams): `+` for a space, escapes for the rest.
    expect(parseAbility("keyv?bucket=my+notes&prefix=%E2%82%AC*-._~!'()")).toMatchObject({
      bucket: 'my notes',
      prefix: "€*-._~!'()",
    })
    expect(() => parseAbility('keyv?bucket=users;prefix=x')).toThrow(
      /holds ";", which a limit value must escape: write %3B/,
    )
    expect(parseAbility('keyv?prefix=alice/notes:2024@home')).toMatchObject({
      prefix: 'alice/notes:2024@home',
    })
    expect(() => parseAbility('keyv?bucket=%ZZ')).toThrow(/not valid percent-encoding/)
    expect(() => parseAbility('core?bucket=a')).toThrow(/only keyv abilities take limits/)
  })

  it('keeps a limited authorization inside its bucket and prefix', async () => {
    await h.call('keyv.set', { body: 'alice/name', query: { bucket: 'users', value: '"Alice"' } })
    await h.call('keyv.set', { body: 'bob/name', query: { bucket: 'users', value: '"Bob"' } })
    const token = await h.authorize({
      abilities: [
        'keyv.get?bucket=users&prefix=alice%2F',
        'keyv.scan?bucket=users&prefix=alice%2F',
      ],
    })
    const own = await h.call('keyv.get', { token, body: 'alice/name', query: { bucket: 'users' } })
    expect(own.text).toBe('"Alice"')
    const other = await h.call('keyv.get', { token, body: 'bob/name', query: { bucket: 'users' } })
    expect([other.status, other.text]).toEqual([401, denied('keyv.get')])
    const bucket = await h.call('keyv.get', {
      token,
      body: 'alice/name',
      query: { bucket: 'admins' },
    })
    expect(bucket.status).toBe(401)
    const write = await h.call('keyv.set', {
      token,
      body: 'alice/x',
      query: { bucket: 'users', value: '1' },
    })
    expect(write.status).toBe(401)
    const scan = await h.call('keyv.scan', { token, query: { bucket: 'users', prefix: 'alice/' } })
    expect(scan.text).toBe('["alice/name"]')
    const wide = await h.call('keyv.scan', { token, query: { bucket: 'users' } })
    expect([wide.status, wide.text]).toEqual([401, denied('keyv.scan')])
  })

  it('lets a bucket-only limit reach every key of that bucket', async () => {
    const token = await h.authorize({ abilities: ['keyv?bucket=notes'] })
    expect(
      (await h.call('keyv.set', { token, body: 'a', query: { bucket: 'notes', value: '1' } })).text,
    ).toBe('true')
    expect((await h.call('keyv.get', { token, body: 'a', query: { bucket: 'notes' } })).text).toBe(
      '1',
    )
    expect((await h.call('keyv.get', { token, body: 'a' })).status).toBe(401)
  })
})

describe('secrets and their authorizations', () => {
  it('kills a secret, its authorizations, their descendants and its cursors when rolled now', async () => {
    const token = await h.authorize({ abilities: ['core', 'keyv'] })
    const minter = await h.authorize({ abilities: ['auth.create'], insecure: true })
    const child = await h.authorize({ abilities: ['core'] }, minter)
    for (const key of ['a', 'b', 'c'])
      await h.call('keyv.set', { body: key, query: { value: '1' } })
    const page = await h.call('keyv.scan', { token, query: { count: '1' } })
    const cursor = page.headers.get('x-cursor')!
    expect(cursor).not.toBe('')

    const replacement = await h.engine.account.rollSecret(h.secret.id)
    for (const dead of [token, minter, child]) {
      const response = await h.call('core.ping', { token: dead })
      expect([response.status, response.text]).toEqual([401, 'authorization is invalid'])
    }
    expect((await h.call('core.ping')).text).toBe('authorization is expired')
    const fresh = await h.authorize({ abilities: ['keyv'] }, replacement.key)
    const reused = await h.call('keyv.scan', { token: fresh, query: { count: '1', cursor } })
    expect([reused.status, reused.text]).toEqual([400, 'cursor is invalid'])
  })

  it('keeps both secrets working until a scheduled roll takes effect', async () => {
    const token = await h.authorize({ abilities: ['core'] })
    const at = h.clock.now() / 1000 + 120
    const replacement = await h.engine.account.rollSecret(h.secret.id, { at })
    h.clock.advance(119_000)
    for (const key of [h.secret.key, replacement.key, token]) {
      expect((await h.call('core.ping', { token: key })).status).toBe(200)
    }
    h.clock.advance(1_000)
    expect((await h.call('core.ping', { token: h.secret.key })).status).toBe(401)
    expect((await h.call('core.ping', { token })).text).toBe('authorization is invalid')
    expect((await h.call('core.ping', { token: replacement.key })).status).toBe(200)
  })

  it('ties authorizations minted by an authorization to the root secret', async () => {
    const other = await h.engine.account.createSecret()
    const minter = await h.authorize({ abilities: ['auth.create'], insecure: true })
    const child = await h.authorize({ abilities: ['core'] }, minter)
    await h.engine.account.rollSecret(other.id)
    expect((await h.call('core.ping', { token: child })).status).toBe(200)
    await h.engine.account.rollSecret(h.secret.id)
    expect((await h.call('core.ping', { token: child })).status).toBe(401)
  })
})
