import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})

async function store(name: string, proc: unknown) {
  const response = await h.tuples('service.create', [
    ['$$', 'name', name],
    ['$$', 'proc', proc],
  ])
  expect(response.status).toBe(200)
}

describe('an ability naming a stored procedure', () => {
  it('reaches that procedure only, not the procedures named below it', async () => {
    await store('foo', ['{}', ['>>', ['%%', 'foo']]])
    await store('foo.admin', ['{}', ['>>', ['%%', 'admin']]])
    const one = await h.authorize({ abilities: ['lib.foo'] })
    expect((await h.call('lib.foo', { token: one })).text).toBe('foo')
    const below = await h.call('lib.foo.admin', { token: one })
    expect([below.status, below.text]).toEqual([
      401,
      "authorization does not have the ability to access service `lib.foo.admin'",
    ])
    const all = await h.authorize({ abilities: ['lib'] })
    expect((await h.call('lib.foo.admin', { token: all })).text).toBe('admin')
    const exact = await h.authorize({ abilities: ['lib.foo.admin'] })
    expect((await h.call('lib.foo.admin', { token: exact })).text).toBe('admin')
    expect((await h.call('lib.foo', { token: exact })).status).toBe(401)
  })

  it('still covers built-in packages by whole segments', async () => {
    const token = await h.authorize({ abilities: ['type.string'] })
    expect((await h.call('type.string.reverse', { token, body: 'ab' })).text).toBe('ba')
    expect((await h.call('type.number.add', { token, query: { value: '1' } })).status).toBe(401)
  })
})

describe('an authorization minted by an authorization', () => {
  const inspect = async (token: string) =>
    (await h.control('inspect', { token })).body as {
      state: string
      details: { expiresAt: number | null }
    }

  it('never outlives its parent, whatever expiry or ttl it asks for', async () => {
    const parent = await h.authorize({ abilities: ['auth', 'core'], insecure: true, ttl: 60 })
    const parentExpiry = (await inspect(parent)).details.expiresAt!
    const longer = await h.authorize({ abilities: ['core'], ttl: 3600 }, parent)
    const forever = await h.authorize({ abilities: ['core'] }, parent)
    const later = await h.authorize({ abilities: ['core'], expiry: parentExpiry + 1000 }, parent)
    const shorter = await h.authorize({ abilities: ['core'], ttl: 30 }, parent)
    for (const child of [longer, forever, later]) {
      expect((await inspect(child)).details.expiresAt).toBe(parentExpiry)
    }
    expect((await inspect(shorter)).details.expiresAt).toBe(parentExpiry - 30)
    await h.control('clock', { advance: 59 })
    for (const child of [longer, forever, later]) {
      expect((await h.call('core.ping', { token: child })).text).toBe('true')
    }
    await h.control('clock', { advance: 2 })
    for (const child of [longer, forever, later, shorter]) {
      const response = await h.call('core.ping', { token: child })
      expect([response.status, response.text]).toEqual([401, 'authorization is expired'])
    }
  })

  it('keeps the expiry it asks for when its parent has none, as a secret mints', async () => {
    const parent = await h.authorize({ abilities: ['auth', 'core'], insecure: true })
    const child = await h.authorize({ abilities: ['core'] }, parent)
    expect((await inspect(child)).details.expiresAt).toBeNull()
    const timed = await h.authorize({ abilities: ['core'], ttl: 10 }, parent)
    expect((await inspect(timed)).details.expiresAt).toBe(h.clock.now() / 1000 + 10)
  })
})

describe('code that arrives in arguments', () => {
  const stolen = ['{}', ['()', 'keyv.get', ['>>', 'secret']]]

  beforeEach(async () => {
    await h.call('keyv.set', { body: 'secret', query: { value: 'the payroll' } })
    await store('runner', ['{}', ['()', 'core.exec', ['$$', 'proc', ['@@', 'code']]]])
    await store('inputs', ['{}', ['()', 'core.exec', ['>>', ['@@', 'code']]]])
    await store('reader', ['{}', ['()', 'keyv.get', ['>>', 'secret']]])
  })

  it("runs with the caller's authority inside a stored procedure, never the account's", async () => {
    const token = await h.authorize({ abilities: ['lib.runner', 'lib.inputs'] })
    for (const name of ['lib.runner', 'lib.inputs']) {
      const response = await h.tuples(name, [['$$', 'code', ['%%', stolen]]], {
        token,
        accept: 'text/plain',
      })
      expect([name, response.status, response.text]).toEqual([
        name,
        401,
        "authorization does not have the ability to access service `keyv.get'",
      ])
      const asText = await h.call(name, {
        token,
        query: { code: JSON.stringify(stolen) },
        contentType: h.vnd,
        body: '[]',
      })
      expect([name, asText.status]).toEqual([name, 401])
    }
  })

  it('runs when the caller holds the abilities it uses', async () => {
    const token = await h.authorize({ abilities: ['lib.runner', 'keyv.get'] })
    const response = await h.tuples('lib.runner', [['$$', 'code', ['%%', stolen]]], {
      token,
      accept: 'text/plain',
    })
    expect([response.status, response.text]).toEqual([200, 'the payroll'])
  })

  it("leaves a stored procedure's own calls with the account's authority", async () => {
    const token = await h.authorize({ abilities: ['lib.reader'] })
    const response = await h.call('lib.reader', { token })
    expect([response.status, response.text]).toEqual([200, 'the payroll'])
  })
})
