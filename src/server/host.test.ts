import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, onTestFinished } from 'vitest'
import { createEngine, type Store } from '../engine'
import { createMemoryStore } from '../storage/memory-store'
import { memoryShelf, type AccountShelf } from '../storage/sql/account-shelf'
import { listen, type Listener } from './http'
import { openSqliteShelf } from '../storage/sql/sqlite-accounts'
import { openSqliteFile, openSqliteStore } from '../storage/sql/sqlite-store'

const CONTROL = 'server-control-token-0123'
let servers: Listener[] = []
afterEach(async () => {
  for (const server of servers) await server.close()
  servers = []
})

async function start(options: Parameters<typeof listen>[1]['accounts'] = {}) {
  const engine = createEngine({ store: createMemoryStore(), baseUrl: 'http://127.0.0.1' })
  const [secret] = await engine.start()
  const server = await listen(engine, { port: 0, controlToken: CONTROL, accounts: options })
  servers.push(server)
  return { server, secret: secret!, engine }
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

async function newAccount(url: string) {
  const response = await fetch(`${url}/_accounts`, { method: 'POST', headers: bearer(CONTROL) })
  expect(response.status).toBe(201)
  return (await response.json()) as {
    id: string
    baseUrl: string
    secret: string
    controlToken: string
  }
}

const call = (base: string, name: string, token: string, body?: string, query = '') =>
  fetch(`${base}/${name.split('.').join('/')}${query}`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json', accept: 'text/plain' },
    ...(body === undefined ? {} : { body }),
  })

const control = (base: string, path: string, token: string | undefined, body?: unknown) =>
  fetch(`${base}/_account/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(token ? bearer(token) : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })

describe('accounts hosted by one server', () => {
  it('are made and removed with the server control token only', async () => {
    const { server } = await start()
    expect((await fetch(`${server.url}/_accounts`, { method: 'POST' })).status).toBe(401)
    const wrong = await fetch(`${server.url}/_accounts`, { method: 'POST', headers: bearer('x') })
    expect(wrong.status).toBe(401)
    const account = await newAccount(server.url)
    expect(account.baseUrl).toBe(`${server.url}/a/${account.id}`)
    expect(await (await call(account.baseUrl, 'core.ping', account.secret)).text()).toBe('true')
    const listed = await fetch(`${server.url}/_accounts`, { headers: bearer(CONTROL) })
    expect(await listed.json()).toEqual([
      { id: account.id, baseUrl: account.baseUrl, createdAt: expect.any(Number) },
    ])

    const removal = () =>
      fetch(`${server.url}/_accounts/${account.id}`, { method: 'DELETE', headers: bearer(CONTROL) })
    expect((await removal()).status).toBe(204)
    expect((await removal()).status).toBe(404)
    const gone = await call(account.baseUrl, 'core.ping', account.secret)
    expect([gone.status, await gone.json()]).toEqual([
      404,
      { error: { message: `no account \`${account.id}' on this server` } },
    ])
  })

  it('see nothing of each other: secrets, authorizations, cursors, keys, clock, faults, journal', async () => {
    const { server, secret: mainSecret } = await start()
    const a = await newAccount(server.url)
    const b = await newAccount(server.url)

    for (const [base, foreign] of [
      [a.baseUrl, b.secret],
      [b.baseUrl, a.secret],
      [a.baseUrl, mainSecret],
      [server.url, a.secret],
    ] as const) {
      const refused = await call(base, 'core.ping', foreign)
      expect([refused.status, await refused.text()]).toEqual([401, 'authorization is invalid'])
    }
    const minted = await (
      await call(
        a.baseUrl,
        'auth.create',
        a.secret,
        '',
        '?abilities=' + encodeURIComponent('["core"]'),
      )
    ).text()
    expect((await call(a.baseUrl, 'core.ping', minted)).status).toBe(200)
    expect((await call(b.baseUrl, 'core.ping', minted)).status).toBe(401)

    for (const key of ['k1', 'k2']) {
      await call(a.baseUrl, 'keyv.set', a.secret, undefined, `?bucket=b&key=${key}&value=v`)
    }
    const page = await call(a.baseUrl, 'keyv.scan', a.secret, '', '?bucket=b&count=1')
    const cursor = page.headers.get('x-cursor')!
    expect(cursor).not.toBe('')
    const foreignCursor = await call(
      b.baseUrl,
      'keyv.scan',
      b.secret,
      '',
      `?bucket=b&cursor=${cursor}`,
    )
    expect([foreignCursor.status, await foreignCursor.text()]).toEqual([400, 'cursor is invalid'])
    expect(await (await call(b.baseUrl, 'keyv.get', b.secret, '', '?bucket=b&key=k1')).text()).toBe(
      'null',
    )

    await control(a.baseUrl, 'clock', a.controlToken, { advance: 86_400 })
    await control(a.baseUrl, 'faults', a.controlToken, { status: 503, count: null })
    await control(a.baseUrl, 'exchanges', a.controlToken, { capacity: 10 })
    const nowOf = async (base: string, token: string) =>
      ((await (await control(base, 'clock', token)).json()) as { now: number }).now
    expect(
      (await nowOf(a.baseUrl, a.controlToken)) - (await nowOf(b.baseUrl, b.controlToken)),
    ).toBeGreaterThan(86_000)
    expect((await call(a.baseUrl, 'core.ping', a.secret)).status).toBe(503)
    expect((await call(b.baseUrl, 'core.ping', b.secret)).status).toBe(200)
    const journal = async (base: string, token: string) =>
      ((await (await control(base, 'exchanges', token)).json()) as { exchanges: unknown[] })
        .exchanges
    expect(await journal(a.baseUrl, a.controlToken)).toHaveLength(1)
    expect(await journal(b.baseUrl, b.controlToken)).toHaveLength(0)
  })

  it('open their control plane to their own token or the server’s, and to no other', async () => {
    const { server } = await start()
    const a = await newAccount(server.url)
    const b = await newAccount(server.url)
    expect((await control(a.baseUrl, 'secrets', a.controlToken)).status).toBe(200)
    expect((await control(a.baseUrl, 'secrets', CONTROL)).status).toBe(200)
    expect((await control(a.baseUrl, 'secrets', b.controlToken)).status).toBe(401)
    expect((await control(a.baseUrl, 'secrets', undefined)).status).toBe(401)
    expect((await control(a.baseUrl, 'secrets', a.secret)).status).toBe(401)
    // An account's token opens neither the server's own account nor the list of accounts.
    expect((await control(server.url, 'secrets', a.controlToken)).status).toBe(401)
    const list = await fetch(`${server.url}/_accounts`, { headers: bearer(a.controlToken) })
    expect(list.status).toBe(401)
    for (const path of [
      `//a/${a.id}/_account/secrets`,
      `/a//${a.id}/_account/secrets`,
      `/a/${a.id}//_account/secrets`,
    ]) {
      const sneaky = await fetch(`${server.url}${path}`)
      expect(sneaky.status, path).not.toBe(200)
    }
  })

  it('are bounded in number, with a clear refusal', async () => {
    const { server } = await start({ maxAccounts: 2 })
    await newAccount(server.url)
    await newAccount(server.url)
    const third = await fetch(`${server.url}/_accounts`, {
      method: 'POST',
      headers: bearer(CONTROL),
    })
    expect(third.status).toBe(507)
    expect(((await third.json()) as { error: { message: string } }).error.message).toMatch(
      /^this server hosts at most 2 accounts \(--max-accounts\)/,
    )
  })

  it('persist on disk with their keys, secrets and control tokens', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'accounts-'))
    try {
      // The list in the server's own file, each account's data in a file beside it.
      const open = async () => {
        const file = await openSqliteFile(join(dir, 'server.db'))
        return { file, shelf: await openSqliteShelf(file, join(dir, 'accounts'), openSqliteStore) }
      }
      const kept = await open()
      const first = await start({ shelf: kept.shelf })
      const account = await newAccount(first.server.url)
      await call(account.baseUrl, 'keyv.set', account.secret, undefined, '?bucket=b&key=k&value=42')
      await first.server.close()
      await kept.file.store.close()
      servers = servers.filter((s) => s !== first.server)

      const again = await open()
      onTestFinished(() => again.file.store.close())
      const second = await start({ shelf: again.shelf })
      const base = `${second.server.url}/a/${account.id}`
      expect(
        await (await call(base, 'keyv.get', account.secret, '', '?bucket=b&key=k')).text(),
      ).toBe('42')
      expect((await control(base, 'secrets', account.controlToken)).status).toBe(200)
      // A reset keeps the secret the account started with.
      expect((await control(base, 'reset', account.controlToken, {})).status).toBe(200)
      expect((await call(base, 'core.ping', account.secret)).status).toBe(200)
      expect(
        await (await call(base, 'keyv.get', account.secret, '', '?bucket=b&key=k')).text(),
      ).toBe('null')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('faults over HTTP', () => {
  it('drop the connection, reset it mid-body, cut the answer, or hang until the client gives up', async () => {
    const { server, secret } = await start()
    const fault = (rule: object) => control(server.url, 'faults', CONTROL, { ...rule, once: true })
    const echo = (signal?: AbortSignal) =>
      fetch(`${server.url}/core/echo`, {
        method: 'POST',
        headers: { ...bearer(secret), 'content-type': 'text/plain' },
        body: 'x'.repeat(64 * 1024),
        ...(signal ? { signal } : {}),
      })
    await fault({ kind: 'network' })
    await expect(echo()).rejects.toThrow(TypeError)
    await fault({ kind: 'reset' })
    await expect(echo().then((response) => response.text())).rejects.toThrow(TypeError)
    await fault({ kind: 'truncate' })
    const cut = await echo()
    expect([cut.status, cut.headers.get('x-fault'), (await cut.text()).length]).toEqual([
      200,
      'truncate',
      32 * 1024,
    ])
    await fault({ kind: 'hang', delayMs: 600_000 })
    await expect(echo(AbortSignal.timeout(200))).rejects.toThrow(/abort|timeout/i)
    expect(await (await echo()).text()).toHaveLength(64 * 1024)
  })

  it('are journaled with their kind, a dropped connection as no answer', async () => {
    const { server, secret } = await start()
    await control(server.url, 'exchanges', CONTROL, { capacity: 100 })
    const fault = (rule: object) => control(server.url, 'faults', CONTROL, { ...rule, once: true })
    const ping = () =>
      fetch(`${server.url}/core/ping`, { method: 'POST', headers: bearer(secret) }).then(
        async (response) => `${response.status} ${response.headers.get('x-fault')}`,
        (error: Error) => `no answer: ${error.name}`,
      )
    await fault({ kind: 'delay', delayMs: 20 })
    expect(await ping()).toBe('200 delay')
    await fault({ kind: 'network' })
    expect(await ping()).toBe('no answer: TypeError')
    await fault({ kind: 'hang', delayMs: 20 })
    expect(await ping()).toBe('no answer: TypeError')
    await fault({ status: 429, retryAfter: 3 })
    expect(await ping()).toBe('429 429')
    const { exchanges } = (await (await control(server.url, 'exchanges', CONTROL)).json()) as {
      exchanges: Array<{ response: { status: number; headers: Array<[string, string]> } }>
    }
    const faultOf = ({ response }: (typeof exchanges)[number]) => [
      response.status,
      response.headers.find(([name]) => name === 'x-fault')?.[1],
    ]
    expect(exchanges.reverse().map(faultOf)).toEqual([
      [200, 'delay'],
      [0, 'network'],
      [0, 'hang'],
      [429, '429'],
    ])
  })
})

describe('one request, read once', () => {
  it('finds a hosted account once per request, with its journal on', async () => {
    const shelf = memoryShelf()
    let finds = 0
    const counted: AccountShelf = { ...shelf, find: (id) => (finds++, shelf.find(id)) }
    const { server } = await start({ shelf: counted })
    const account = await newAccount(server.url)
    const engineOf = await fetch(`${account.baseUrl}/_account/exchanges`, {
      method: 'POST',
      headers: { ...bearer(account.controlToken), 'content-type': 'application/json' },
      body: '{"capacity": 10}',
    })
    expect(engineOf.status).toBe(200)
    finds = 0
    for (let i = 0; i < 5; i++) {
      expect(await (await call(account.baseUrl, 'core.ping', account.secret)).text()).toBe('true')
    }
    expect(finds).toBe(5)
  })
})

describe('accounts on a shelf other processes share', () => {
  it('answer as the shelf has them now, and their engines here close once removed elsewhere', async () => {
    const shelf = memoryShelf()
    const closed: string[] = []
    // As a second process over the same database opens them: each store says when it closes.
    const tracked = (id: string, store: Store): Store => ({
      ...store,
      close: async () => void closed.push(id),
    })
    const shared: AccountShelf = {
      ...shelf,
      async add(account, max) {
        const added = await shelf.add(account, max)
        return added && { store: tracked(account.id, added.store) }
      },
      open: async (id) => ({ store: tracked(id, (await shelf.open(id)).store) }),
    }
    const { server } = await start({ shelf: shared })
    const made = await newAccount(server.url)
    await shelf.add(
      {
        ...made,
        id: 'elsewhere0000000',
        createdAt: 0,
        controlTokenHash: '',
        secrets: ['other-secret-key'],
      },
      10,
    )
    // An account another process made: answered here at its first request.
    const other = `${server.url}/a/elsewhere0000000`
    expect(await (await call(other, 'core.ping', 'other-secret-key')).text()).toBe('true')
    // Removed by the other process: gone here at once, its engine closed.
    await shelf.remove('elsewhere0000000')
    expect((await call(other, 'core.ping', 'other-secret-key')).status).toBe(404)
    expect(closed).toEqual(['elsewhere0000000'])
    // One this process answered once, removed elsewhere and never asked for again: closed
    // when this process next makes an account.
    expect((await call(made.baseUrl, 'core.ping', made.secret)).status).toBe(200)
    await shelf.remove(made.id)
    await newAccount(server.url)
    expect(closed).toEqual(['elsewhere0000000', made.id])
  })
})

describe('errors on the hosted-account path', () => {
  it('answer in the JSON error format and are logged with the request, never an empty 500', async () => {
    const shelf = memoryShelf()
    const broken: AccountShelf = {
      ...shelf,
      add: async () => {
        throw new TypeError('the shelf broke')
      },
    }
    const errors: unknown[][] = []
    const original = console.error
    console.error = (...args: unknown[]) => void errors.push(args)
    onTestFinished(() => void (console.error = original))
    const { server } = await start({ shelf: broken })
    const made = await fetch(`${server.url}/_accounts`, {
      method: 'POST',
      headers: bearer(CONTROL),
    })
    expect(made.status).toBe(500)
    expect(await made.json()).toEqual({
      error: { message: 'internal error: the server failed on this request, and logged why' },
    })
    expect(errors).toHaveLength(1)
    expect(errors[0]![0]).toBe('error: POST /_accounts:')
    expect(String(errors[0]![1])).toContain('the shelf broke')
  })

  it('let a deleted account finish its requests in flight, then answer 404', async () => {
    // The account's store holds a read of `gate` until released; its removal is told.
    const shelf = memoryShelf()
    const signal = () => {
      let resolve!: () => void
      return { done: new Promise<void>((r) => (resolve = r)), resolve: () => resolve() }
    }
    const [reading, release, removed] = [signal(), signal(), signal()]
    const gated: AccountShelf = {
      ...shelf,
      async add(account, max) {
        const shelved = await shelf.add(account, max)
        if (!shelved) return undefined
        const { store } = shelved
        const getKey: Store['getKey'] = async (bucket, key) => {
          if (key === 'gate') {
            reading.resolve()
            await release.done
          }
          return store.getKey(bucket, key)
        }
        return { store: { ...store, getKey } }
      },
      async remove(id) {
        await shelf.remove(id)
        removed.resolve()
      },
    }
    const { server } = await start({ shelf: gated })
    const account = await newAccount(server.url)
    const held = call(account.baseUrl, 'keyv.get', account.secret, '', '?bucket=b&key=gate')
    await reading.done
    const deletion = fetch(`${server.url}/_accounts/${account.id}`, {
      method: 'DELETE',
      headers: bearer(CONTROL),
    })
    await removed.done
    // While it drains: gone for new requests, with why; the one in flight is still running.
    const late = await call(account.baseUrl, 'core.ping', account.secret)
    expect([late.status, await late.json()]).toEqual([
      404,
      {
        error: {
          message: `no account \`${account.id}' on this server: it has been deleted`,
        },
      },
    ])
    release.resolve()
    const answered = await held
    expect([answered.status, await answered.text()]).toEqual([200, 'null'])
    expect((await deletion).status).toBe(204)
  })
})
