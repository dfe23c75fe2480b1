// What the kit cannot judge, it refuses, saying why: a policy assertion or a filter that could
// not fail, a misspelt option, a fault that would never be met.
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { useService } from 'service-playground/vitest'
import { openAccount, startService } from 'service-playground'
import { serviceOptions } from './setup/target.js'

const proc = useService(serviceOptions())

/** A port nothing listens on: one the system gave and took back. */
const closedPort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

/** The error `work` throws or rejects with, whether it is synchronous or not. */
const refusal = (work) => (async () => work())()

describe('the policy matchers', () => {
  it('refuse an endpoint the service does not have, with .not too', async () => {
    const token = await proc.authorize(['keyv'])
    await expect(expect(token).not.toReach('keyv.gte')).rejects.toThrow(
      "toReach: the service has no endpoint `keyv.gte'",
    )
    await expect(expect(token).toReach('keyv.gte')).rejects.toThrow('no endpoint `keyv.gte')
  })

  it('refuse a package where an endpoint is named', async () => {
    const token = await proc.authorize(['keyv'])
    await expect(expect(token).not.toReach('keyv')).rejects.toThrow(
      "toReach: `keyv' is a package; name one of its endpoints",
    )
  })

  it('refuse a place they do not read', async () => {
    const token = await proc.authorize(['keyv.get?bucket=users'])
    await expect(expect(token).toReach('keyv.get', { bukcet: 'users' })).rejects.toThrow(
      "toReach: unknown key `bukcet'; the place reads bucket, prefix, key",
    )
    await expect(expect(token).not.toReach('core.ping', { bucket: 'users' })).rejects.toThrow(
      "a place (bucket, prefix, key) is for keyv's endpoints; `core.ping' has none",
    )
  })

  it('refuse a Promise in place of a token, saying so', async () => {
    const pending = proc.authorize(['core'])
    await expect(expect(pending).not.toReach('core.ping')).rejects.toThrow(
      'toReach: the value expected must be a token (a string), but received a Promise',
    )
    await pending
  })

  it('refuse a string that is not a token of the service, without showing it', async () => {
    const refused = expect('not-a-token').not.toReach('core.ping')
    await expect(refused).rejects.toThrow(
      'toReach: the value expected is not a token of the running service: received a string of 11 characters',
    )
    const parent = await proc.authorize(['core'])
    await expect(expect(parent).not.toBeNarrowerThan('nope')).rejects.toThrow(
      'toBeNarrowerThan: the parent is not a token of the running service',
    )
  })
})

describe('misspelt options', () => {
  it("refuses authorize's unknown option", async () => {
    await expect(proc.authorize(['core'], { tll: 60 })).rejects.toThrow(
      "authorize: unknown option `tll'; it takes ttl, expiry, insecure, token",
    )
  })

  it("refuses a filter's unknown key", async () => {
    await expect(refusal(() => proc.requests({ endpont: 'core.ping' }))).rejects.toThrow(
      "requests: unknown key `endpont'; it reads endpoint,",
    )
  })

  it('refuses a fault on an endpoint the service does not have', async () => {
    await expect(refusal(() => proc.fault({ endpoint: 'keyv.gte', status: 503 }))).rejects.toThrow(
      '`endpoint\' "keyv.gte" is neither an endpoint nor a package of this service; its package holds keyv.delete, keyv.get, keyv.scan, keyv.set',
    )
  })

  it('refuses a secret read from an unset environment variable', async () => {
    await expect(
      refusal(() => startService({ baseUrl: 'https://unset.test', secrets: [undefined] })),
    ).rejects.toThrow('startService: secrets must be non-empty strings, got undefined')
  })

  it('refuses bad chaos options by name, before any hook or test of the file', () => {
    // Thrown before the helper adds a hook: inside a test, a hook added would be an error of its own.
    const refused = [
      [{ seed: 1.5 }, /chaos\.`seed' must be a text .* or a whole number/],
      [{ seed: 1, kinds: ['gremlins'] }, /chaos\.kinds: "gremlins" is not a kind/],
      [{ seed: 1, rate: 1.5 }, /chaos\.rate must be a number more than 0 and at most 1; got 1\.5/],
      [{ seed: 1, runs: 0 }, /chaos\.runs must be a whole number .*got 0/],
    ]
    for (const [chaos, message] of refused) {
      expect(() => useService({ ...serviceOptions(), chaos })).toThrow(message)
    }
  })

  it('says what to do when no server answers', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`
    await expect(openAccount({ url, controlToken: 't' })).rejects.toThrow(
      `openAccount: nothing answers at ${url} (ECONNREFUSED): start a server first`,
    )
  })
})
