import { expect, test, type Wire } from './fixtures'

const typeAbility = JSON.stringify([['$$', 'abilities', ['type']]])

async function authorize(wire: Wire, token: string, query?: string): Promise<string> {
  const response = await wire.call('auth.create', {
    token,
    contentType: 'application/vnd.service+json',
    accept: 'text/plain',
    body: typeAbility,
    ...(query ? { query } : {}),
  })
  expect(response.status, response.body).toBe(200)
  expect(response.headers['content-type']).toBe('text/plain; charset=utf-8')
  return response.body
}

/** The token with one character, not the last (its low bits may be padding), changed. */
function tamper(token: string): string {
  const at = Math.floor(token.length / 2)
  return `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`
}

// One page for the four: each step makes its own secret, and the clock only moves forward, past
// what the steps before it made.
test('tokens reach what they grant, forged ones fail, and time expires and rolls them', async ({
  wire,
  account,
}) => {
  await test.step('an authorization reaches its abilities and nothing else', async () => {
    const secret = await account.createSecret()
    const token = await authorize(wire, secret.key)

    const upcase = await wire.call('type.string.upcase', { token, body: 'hello' })
    expect([upcase.status, upcase.body]).toEqual([200, 'HELLO'])

    const get = await wire.call('keyv.get', { token, query: 'bucket=users&key=alice' })
    expect([get.status, get.body]).toEqual([
      401,
      "authorization does not have the ability to access service `keyv.get'",
    ])
  })

  await test.step('a token with one byte changed is invalid', async () => {
    const secret = await account.createSecret()
    const token = await authorize(wire, secret.key)
    const forged = tamper(token)
    expect(forged).not.toBe(token)

    const response = await wire.call('type.string.upcase', { token: forged, body: 'hello' })
    expect([response.status, response.body]).toEqual([401, 'authorization is invalid'])
    const secretForged = await wire.call('type.string.upcase', {
      token: tamper(secret.key),
      body: 'hello',
    })
    expect([secretForged.status, secretForged.body]).toEqual([401, 'authorization is invalid'])
  })

  await test.step('an authorization with a ttl expires on the virtual clock', async () => {
    const secret = await account.createSecret()
    const token = await authorize(wire, secret.key, 'ttl=60')
    expect((await wire.call('type.string.upcase', { token, body: 'a' })).status).toBe(200)

    await account.advance(61)

    const response = await wire.call('type.string.upcase', { token, body: 'a' })
    expect([response.status, response.body]).toEqual([401, 'authorization is expired'])
  })

  await test.step('a secret rolled in the future works until then, with its replacement', async () => {
    const old = await account.createSecret()
    const oldAuthorization = await authorize(wire, old.key)
    const replacement = await account.roll(old.id, (await account.now()) + 120)
    const upcase = (token: string) => wire.call('type.string.upcase', { token, body: 'a' })

    for (const token of [old.key, oldAuthorization, replacement.key]) {
      expect((await upcase(token)).status).toBe(200)
    }
    // Beside the account's starting secret.
    expect(
      (await account.secrets())
        .filter(({ id }) => id === old.id || id === replacement.id)
        .map(({ id, state }) => [id, state]),
    ).toEqual([
      [old.id, 'rolling'],
      [replacement.id, 'active'],
    ])

    await account.advance(121)

    const oldSecret = await upcase(old.key)
    expect([oldSecret.status, oldSecret.body]).toEqual([401, 'authorization is expired'])
    const descendant = await upcase(oldAuthorization)
    expect([descendant.status, descendant.body]).toEqual([401, 'authorization is invalid'])
    const fresh = await upcase(replacement.key)
    expect([fresh.status, fresh.body]).toEqual([200, 'A'])
    expect((await upcase(await authorize(wire, replacement.key))).status).toBe(200)
  })
})
