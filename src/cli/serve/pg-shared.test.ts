import { createInterface } from 'node:readline'
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest'
import { USAGE, usageOf } from '../../engine/account/usage'
import { MAX_JOURNAL_BYTES, type ExchangeRecord } from '../../engine/operator/exchange-log'
import type { StoreSnapshot } from '../../engine/store'
import { createDatabase } from '../../testing/postgres'
import { listening, serve, stopAll } from '../../testing/serve-process'

/**
 * What makes two `serve` processes over one PostgreSQL database one service beyond the
 * account's data: faults, strict mode, the rate window, the journal, the clock, the usage and
 * the hosted accounts, changed through one process and met through the other.
 */

const SECRET = 'shared-secret-0123'
const CONTROL = 'control-token-shared-0123456'
const cluster = inject('postgres')

let a: string
let b: string

beforeAll(async () => {
  const data = await createDatabase(cluster)
  const start = async () => {
    const started = serve([
      ...['--port', '0', '--secret', SECRET, '--control-token', CONTROL, '--data', data],
      ...['--journal', '5', '--max-accounts', '3'],
    ])
    createInterface({ input: started.child.stdout! }).on('line', () => undefined)
    return listening(started)
  }
  ;[a, b] = await Promise.all([start(), start()])
}, 60_000)
afterAll(() => stopAll())

// Each test starts from the state the service started in, through one process.
beforeEach(async () => {
  expect((await control(a, 'reset', {})).status).toBe(200)
})

async function control(url: string, path: string, body?: unknown, token = CONTROL) {
  const response = await fetch(`${url}/_account/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, value: (await response.json()) as unknown }
}

/** An endpoint call with its arguments in the query string, and its status. */
async function call(url: string, name: string, query = '', init: RequestInit = {}) {
  const response = await fetch(`${url}/${name.split('.').join('/')}${query}`, {
    method: 'POST',
    ...init,
    headers: { authorization: `Bearer ${SECRET}`, ...init.headers },
  })
  return { status: response.status, text: await response.text() }
}

const statuses = async (calls: Promise<{ status: number }>[]) =>
  (await Promise.all(calls)).map(({ status }) => status)

describe('two serve processes over one PostgreSQL database share the operator', () => {
  it('meet a fault added through one through the other, each of its calls once', async () => {
    expect((await control(a, 'faults', { status: 503, count: 3 })).status).toBe(200)
    expect(await statuses([call(b, 'core.ping'), call(b, 'core.ping')])).toEqual([503, 503])
    // Its last call, met by one of many requests at once through both.
    const met = await statuses(
      Array.from({ length: 10 }, (_, i) => call(i % 2 === 0 ? b : a, 'core.ping')),
    )
    expect(met.filter((status) => status === 503)).toHaveLength(1)
    expect(met.filter((status) => status === 200)).toHaveLength(9)
    expect((await control(b, 'faults')).value).toEqual([])

    await control(b, 'faults', { status: 429, endpoint: 'core.echo', count: null })
    expect((await call(a, 'core.echo', '?x=1')).status).toBe(429)
    expect((await control(a, 'faults/clear', {})).status).toBe(200)
    expect((await call(b, 'core.echo', '', { body: 'x' })).status).toBe(200)
  })

  it('refuse in strict mode switched on through the other, and report to both', async () => {
    expect((await control(a, 'strict', { enabled: true })).status).toBe(200)
    // A body without a content type: lenient servers read it as text; strict mode refuses it.
    const refused = await call(b, 'core.echo', '', { body: new TextEncoder().encode('x') })
    expect(refused.status).toBe(400)
    expect(refused.text).toMatch(/^strict mode: the body has no content-type/)
    const report = (await control(a, 'strict')).value as {
      enabled: boolean
      requests: Array<{ url: string; deviations: string[] }>
    }
    expect(report.enabled).toBe(true)
    expect(report.requests).toEqual([
      expect.objectContaining({ url: `${b}/core/echo`, deviations: [expect.any(String)] }),
    ])
    await control(b, 'strict', { enabled: false })
    expect((await call(a, 'core.echo', '', { body: new TextEncoder().encode('x') })).status).toBe(
      200,
    )
  })

  it('keep one journal, bounded: read through one, it lists what the other answered', async () => {
    for (let i = 0; i < 8; i++) await call(i % 2 === 0 ? a : b, 'core.echo', `?n=${i}`)
    const read = (await control(b, 'exchanges')).value as {
      capacity: number
      exchanges: ExchangeRecord[]
    }
    expect(read.capacity).toBe(5)
    expect(read.exchanges.map(({ request }) => request.url)).toEqual([
      `${b}/core/echo?n=7`,
      `${a}/core/echo?n=6`,
      `${b}/core/echo?n=5`,
      `${a}/core/echo?n=4`,
      `${b}/core/echo?n=3`,
    ])
    const [newest] = read.exchanges
    const after = (await control(a, `exchanges?after=${newest!.id - 2}`)).value as {
      exchanges: ExchangeRecord[]
    }
    expect(after.exchanges.map(({ id }) => id)).toEqual([newest!.id, newest!.id - 1])
  })

  it('count one rate window across both', async () => {
    const limit = { enforce: true, limit: 5, windowSeconds: 60 }
    expect((await control(b, 'rate-limit', limit)).value).toEqual(limit)
    expect((await control(a, 'rate-limit')).value).toEqual(limit)
    const counted = await statuses(
      Array.from({ length: 8 }, (_, i) => call(i % 2 === 0 ? a : b, 'core.ping')),
    )
    expect(counted.filter((status) => status === 200)).toHaveLength(5)
    expect(counted.filter((status) => status === 429)).toHaveLength(3)
    // A minute on, on the shared clock: a new window for both.
    await control(a, 'clock', { advance: 60 })
    expect(await statuses([call(b, 'core.ping'), call(a, 'core.ping')])).toEqual([200, 200])
  })

  it('add every clock advance made through either', async () => {
    const before = ((await control(a, 'clock')).value as { now: number }).now
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => control(i % 2 === 0 ? a : b, 'clock', { advance: 60 })),
    )
    const exported = (await control(b, 'export')).value as StoreSnapshot
    expect(exported.meta.clockOffset).toBe(600_000)
    const after = ((await control(a, 'clock')).value as { now: number }).now
    expect(after - before).toBeGreaterThanOrEqual(600)
    expect(after - before).toBeLessThan(660)
  })

  it('count every write through either in the usage', async () => {
    // Writes at once through both, to one key and to others, of every size.
    const writes = await statuses(
      Array.from({ length: 60 }, (_, i) =>
        call(
          i % 2 === 0 ? a : b,
          'keyv.set',
          `?bucket=b&key=${i % 3 === 0 ? 'same' : `k${i}`}&value=${'v'.repeat(i)}`,
        ),
      ),
    )
    expect(writes).toEqual(writes.map(() => 200))
    const written = (await control(a, 'export')).value as StoreSnapshot
    expect(written.keyv).toHaveLength(41)
    expect(written.meta[USAGE]).toBe(usageOf(written))
  })

  it('reset through one: the other is back at real time, with no faults and an empty journal', async () => {
    const realNow = Date.now() / 1000
    await control(a, 'clock', { advance: 86_400 })
    expect(((await control(b, 'clock')).value as { now: number }).now).toBeGreaterThan(
      realNow + 86_000,
    )
    await control(b, 'faults', { status: 500, count: null })
    await call(b, 'core.ping')
    expect(((await control(a, 'exchanges')).value as { exchanges: [] }).exchanges).toHaveLength(1)

    expect((await control(a, 'reset', {})).status).toBe(200)
    const now = ((await control(b, 'clock')).value as { now: number }).now
    expect(now).toBeLessThan(Date.now() / 1000 + 60)
    expect(now).toBeGreaterThanOrEqual(realNow - 1)
    expect((await control(b, 'faults')).value).toEqual([])
    expect((await control(b, 'exchanges')).value).toEqual({
      capacity: 5,
      maxBytes: MAX_JOURNAL_BYTES,
      exchanges: [],
    })
    expect((await call(b, 'core.ping')).status).toBe(200)
  })
})

interface Made {
  id: string
  baseUrl: string
  secret: string
  controlToken: string
}

async function accounts(url: string, method = 'GET', path = '') {
  const response = await fetch(`${url}/_accounts${path}`, {
    method,
    headers: { authorization: `Bearer ${CONTROL}` },
  })
  return { status: response.status, value: response.status === 204 ? null : await response.json() }
}

describe('two serve processes over one PostgreSQL database host the same accounts', () => {
  it('answer an account made through one through the other, until deleted anywhere', async () => {
    const made = (await accounts(a, 'POST')).value as Made
    expect(made.baseUrl).toBe(`${a}/a/${made.id}`)
    const throughB = `${b}/a/${made.id}`
    const hosted = (url: string, name: string, query = '') =>
      fetch(`${url}/${name.split('.').join('/')}${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${made.secret}` },
      })
    expect((await hosted(throughB, 'keyv.set', '?key=k&value=from-b')).status).toBe(200)
    expect(await (await hosted(made.baseUrl, 'keyv.get', '?key=k')).text()).toBe('from-b')
    // Its own control token opens its control plane through either; the server's secret is not its.
    expect((await control(throughB, 'faults', { status: 503 }, made.controlToken)).status).toBe(200)
    expect((await hosted(made.baseUrl, 'core.ping')).status).toBe(503)
    expect((await call(b, 'core.ping')).status).toBe(200)
    expect(((await accounts(b)).value as Made[]).map(({ id }) => id)).toContain(made.id)

    expect((await accounts(b, 'DELETE', `/${made.id}`)).status).toBe(204)
    expect((await hosted(made.baseUrl, 'core.ping')).status).toBe(404)
    expect((await hosted(throughB, 'core.ping')).status).toBe(404)
    expect((await accounts(a, 'DELETE', `/${made.id}`)).status).toBe(404)
    expect(((await accounts(a)).value as Made[]).map(({ id }) => id)).not.toContain(made.id)
  })

  it('hold --max-accounts across both', async () => {
    const made = await Promise.all(
      Array.from({ length: 5 }, (_, i) => accounts(i % 2 === 0 ? a : b, 'POST')),
    )
    expect(made.map(({ status }) => status).sort()).toEqual([201, 201, 201, 507, 507])
    for (const { value } of made.filter(({ status }) => status === 201)) {
      expect((await accounts(b, 'DELETE', `/${(value as Made).id}`)).status).toBe(204)
    }
    expect((await accounts(a)).value).toEqual([])
  })
})
