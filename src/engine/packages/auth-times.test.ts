import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'
import { MAX_TIME } from '../clock'
import type { ExchangeRecord } from '../operator/exchange-log'

let h: Harness

beforeEach(async () => {
  h = await createHarness({ exchangeLog: 20 })
})

const now = () => h.clock.now() / 1000

async function create(args: Record<string, unknown>) {
  const body = [
    ['$$', 'abilities', ['core']],
    ...Object.entries(args).map(([k, v]) => ['$$', k, v]),
  ]
  return h.tuples('auth.create', body, { accept: 'text/plain' })
}

async function lastExchange(): Promise<ExchangeRecord> {
  const response = await h.control('exchanges')
  return (response.body as { exchanges: ExchangeRecord[] }).exchanges[0]!
}

/** Every time `inspect` reports for a token can be written as a date. */
async function datesOf(token: string): Promise<string[]> {
  const report = (await h.control('inspect', { token })).body as {
    details: { createdAt: number; expiresAt: number | null }
  }
  const { createdAt, expiresAt } = report.details
  return [createdAt, expiresAt ?? 0].map((seconds) => new Date(seconds * 1000).toISOString())
}

describe('times auth.create accepts', () => {
  it('refuses an expiry no date can hold, naming the argument and the range', async () => {
    const answer = await create({ expiry: 1e13 })
    expect(answer.status).toBe(400)
    expect(answer.text).toBe(
      `invalid argument \`expiry' for \`auth.create' (must be a Unix time in seconds after now, ${Math.floor(now())}, and at most ${MAX_TIME} (+275760-09-13T00:00:00.000Z, the last moment a date can hold))`,
    )
  })

  it('refuses a ttl that would bring the expiry past the last date, naming the range', async () => {
    const answer = await create({ ttl: 1e13 })
    expect(answer.status).toBe(400)
    expect(answer.text).toBe(
      `invalid argument \`ttl' for \`auth.create' (must be from 1 to ${Math.floor(MAX_TIME - now())} seconds, so that it expires by ${MAX_TIME} (+275760-09-13T00:00:00.000Z, the last moment a date can hold))`,
    )
  })

  it('accepts the last moment itself, and every time it then reports is a date', async () => {
    const atTheEdge = await create({ expiry: MAX_TIME })
    expect(atTheEdge.status).toBe(200)
    expect(await datesOf(atTheEdge.text)).toEqual([
      new Date(h.clock.now()).toISOString(),
      '+275760-09-13T00:00:00.000Z',
    ])
    const longest = await create({ ttl: Math.floor(MAX_TIME - now()) })
    expect(longest.status).toBe(200)
    await expect(datesOf(longest.text)).resolves.toHaveLength(2)
  })

  it.each([1e-9, 0.5, 0, -1])(
    'refuses a ttl of %s: an authorization lives at least one second',
    async (ttl) => {
      const answer = await create({ ttl })
      expect([answer.status, answer.text]).toEqual([
        400,
        expect.stringMatching(/^invalid argument `ttl' for `auth.create' \(must be from 1 to /),
      ])
    },
  )

  it('mints a usable authorization with the shortest ttl', async () => {
    const answer = await create({ ttl: 1 })
    expect(answer.status).toBe(200)
    expect((await h.call('core.ping', { token: answer.text })).text).toBe('true')
    h.clock.advance(1000)
    expect((await h.call('core.ping', { token: answer.text })).text).toBe(
      'authorization is expired',
    )
  })
})

describe('an expiry given in milliseconds', () => {
  it('is accepted as seconds, as the interface says, with a warning in the trace', async () => {
    const millis = Math.round(h.clock.now() + 3_600_000)
    const answer = await create({ expiry: millis })
    expect(answer.status).toBe(200)
    const [call] = (await lastExchange()).trace.calls
    expect(call).toMatchObject({ endpoint: 'auth.create', decision: 'allowed' })
    expect(call!.warnings).toEqual([
      `\`expiry' ${millis} is read as Unix seconds, ${new Date(millis * 1000).toISOString()}; as milliseconds it would be ${new Date(millis).toISOString()}: \`expiry' takes seconds`,
    ])
  })

  it('leaves the trace of an expiry in seconds without warnings', async () => {
    expect((await create({ expiry: now() + 60 })).status).toBe(200)
    const [call] = (await lastExchange()).trace.calls
    expect(call!.warnings).toBeUndefined()
  })
})

describe('a scheduled roll', () => {
  it('refuses a time no date can hold, naming `at` and the range', async () => {
    const rolled = await h.control(`secrets/${h.secret.id}/roll`, { at: 99999999999999 })
    expect(rolled).toEqual({
      status: 400,
      body: {
        error: {
          message: `\`at' must be a Unix time in seconds, not before now (${Math.floor(now())}) and at most ${MAX_TIME} (+275760-09-13T00:00:00.000Z, the last moment a date can hold)`,
        },
      },
    })
    const secrets = (await h.control('secrets')).body as Array<{ expiresAt: number | null }>
    expect(secrets.map((secret) => secret.expiresAt)).toEqual([null])
  })
})
