import { describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'

/** What a rewind must put back, as the control plane shows it (the export's time aside). */
async function observe(h: Harness) {
  const { exportedAt: _at, ...account } = (await h.control('export')).body as Record<
    string,
    unknown
  >
  return {
    account,
    faults: (await h.control('faults')).body,
    clock: (await h.control('clock')).body,
    strict: (await h.control('strict')).body,
  }
}

const lastExchange = async (h: Harness) =>
  ((await h.control('exchanges')).body as { exchanges: Array<{ id: number }> }).exchanges[0]!.id

describe("an account's history", () => {
  it('goes back to just before any exchange, across secrets rolled, authorizations minted, procedures deployed, faults set and the clock moved', async () => {
    const h = await createHarness({ exchangeLog: 100 })
    const seen: Array<{ before: number; state: Awaited<ReturnType<typeof observe>> }> = []
    const step = async (send: () => Promise<unknown>) => {
      const state = await observe(h)
      await send()
      seen.push({ before: await lastExchange(h), state })
    }
    await step(() => h.call('keyv.set', { query: { bucket: 'b', key: 'a', value: '1' } }))
    let token = ''
    await step(async () => (token = await h.authorize({ abilities: ['keyv.get'] })))
    await step(() =>
      h.tuples(`${h.serviceName}.create`, [
        ['$$', 'name', 'flip'],
        ['$$', 'proc', ['{}', ['()', 'type.string.reverse']]],
      ]),
    )
    const rolled = (await h.control(`secrets/${h.secret.id}/roll`, {})).body as { key: string }
    await h.control('faults', { kind: 'status', status: 503, endpoint: 'core.ping', count: 2 })
    await h.control('clock', { advance: 120 })
    await step(() =>
      h.call('keyv.set', { token: rolled.key, query: { bucket: 'b', key: 'a', value: '2' } }),
    )
    await step(() => h.call('core.ping', { token: rolled.key }))
    await h.control('strict', { enabled: true })
    await step(() =>
      h.call('lib.flip', { token: rolled.key, body: 'abc', contentType: 'text/plain' }),
    )
    const end = await observe(h)

    // Back to before each exchange in turn, newest first, each time from where the last left.
    for (const { before, state } of [...seen].reverse()) {
      const rewound = await h.control('rewind', { before })
      expect(rewound.status).toBe(200)
      expect(await observe(h)).toEqual(state)
    }
    // Before the first exchange: no key, the roll undone, no procedure, no fault, no time moved.
    expect((await h.call('keyv.get', { query: { bucket: 'b', key: 'a' } })).text).toBe('null')
    expect((await h.call('core.ping', { token: rolled.key })).status).toBe(401)
    // The authorization was minted later, from a secret that lives here: it still verifies.
    expect((await h.call('keyv.get', { token, query: { bucket: 'b', key: 'a' } })).status).toBe(200)

    // The timeline left first is still there, as it was.
    const branches = (await h.control('branches')).body as {
      current: string
      branches: Array<{ id: string; current: boolean; from: unknown }>
    }
    expect(branches.branches.map((b) => b.id)).toEqual(['main', ...seen.map((_, i) => `b${i + 2}`)])
    expect((await h.control('branches/main/switch', {})).status).toBe(200)
    expect(await observe(h)).toEqual(end)
    expect(
      (await h.call('keyv.get', { token: rolled.key, query: { bucket: 'b', key: 'a' } })).text,
    ).toBe('2')
  })

  it('keeps what a branch did after it left, and compares two branches from where they part', async () => {
    const h = await createHarness({ exchangeLog: 100 })
    const set = (value: string) => h.call('keyv.set', { query: { bucket: 'b', key: 'k', value } })
    await set('1')
    await set('2')
    const second = await lastExchange(h)
    await set('3')
    const made = (await h.control('rewind', { before: second, name: 'try four' })).body as {
      id: string
      name: string
      from: unknown
    }
    expect(made).toMatchObject({ name: 'try four', from: { branch: 'main', before: second } })
    await set('4')
    expect((await h.call('keyv.get', { query: { bucket: 'b', key: 'k' } })).text).toBe('4')

    const compared = (await h.control(`branches/compare?a=main&b=${made.id}`)).body as {
      fork: number
      counts: { a: number; b: number }
      first: { index: number; a: number; b: number }
      exchanges: { a: Array<{ request: { url: string } }>; b: Array<{ request: { url: string } }> }
    }
    expect(compared.fork).toBe(second - 1)
    expect(compared.counts).toEqual({ a: 2, b: 2 })
    expect(compared.first).toMatchObject({ index: 0, a: second })
    expect(
      compared.exchanges.b.map((e) => new URL(e.request.url).searchParams.get('value')),
    ).toEqual([null, '4'])

    expect((await h.control(`branches/${made.id}/name`, { name: 'four' })).status).toBe(200)
    expect((await h.control(`branches/${made.id}/delete`, {})).status).toBe(409)
    await h.control('branches/main/switch', {})
    expect((await h.call('keyv.get', { query: { bucket: 'b', key: 'k' } })).text).toBe('3')
    const left = (await h.control(`branches/${made.id}/delete`, {})).body as {
      branches: Array<{ id: string }>
    }
    expect(left.branches.map((b) => b.id)).toEqual(['main'])
  })

  it('answers every bad request with a clear error, and changes nothing', async () => {
    const h = await createHarness({ exchangeLog: 100 })
    const off = await createHarness()
    expect(await off.control('rewind', { before: 1 })).toMatchObject({
      status: 409,
      body: { error: { message: expect.stringMatching(/journal is off.*capacity/) } },
    })
    await h.call('keyv.set', { query: { bucket: 'b', key: 'k', value: '1' } })
    await h.call('core.ping')
    const before = await observe(h)
    const last = await lastExchange(h)
    const bad: Array<[string, unknown, number, RegExp]> = [
      ['rewind', { before: last + 10 }, 404, /no exchange \d+ .* keeps exchanges 1 on/],
      ['rewind', { before: 'one' }, 400, /`before' is required and must be a number/],
      ['rewind', { before: 0 }, 400, /whole number from 1/],
      ['rewind', { before: last, name: '' }, 400, /`name' must be 1 to 64/],
      ['branches/nope/switch', {}, 404, /no branch `nope'/],
      ['branches/nope/delete', {}, 404, /no branch `nope'/],
      ['branches/main/delete', {}, 409, /the one the account is on/],
      ['reset', { seed: true }, 400, /`seed' must be a text .* got a boolean/],
      ['reset', { seed: 1.5 }, 400, /`seed' must be .* got the number 1.5/],
      ['replay', { from: last + 10 }, 404, /no exchange/],
      ['replay/state', { mark: { operator: {} } }, 400, /invalid state: mark.clock/],
    ]
    for (const [path, body, status, message] of bad) {
      const answer = await h.control(path, body)
      expect({ path, ...answer }).toMatchObject({
        path,
        status,
        body: { error: { message: expect.stringMatching(message) } },
      })
    }
    for (const query of ['branches/compare?a=main', 'recording', 'recording?from=x']) {
      expect((await h.control(query)).status).toBe(400)
    }
    expect(await observe(h)).toEqual(before)
    expect((await h.control('branches')).body).toMatchObject({ current: 'main', oldest: 1 })
  })

  it('says which is the oldest exchange it reaches once old steps go past its budget', async () => {
    const h = await createHarness({ exchangeLog: 100 })
    // Each write's undo record holds the 100 kB value it replaced: 50 of them pass 4 MiB.
    const value = 'x'.repeat(100_000)
    for (let i = 0; i < 50; i++) {
      const answer = await h.tuples('keyv.set', [
        ['$$', 'bucket', 'b'],
        ['$$', 'key', 'k'],
        ['$$', 'value', `${i}${value}`],
      ])
      expect(answer.status).toBe(200)
    }
    const { oldest } = (await h.control('branches')).body as { oldest: number }
    expect(oldest).toBeGreaterThan(1)
    const before = await observe(h)
    expect(await h.control('rewind', { before: oldest - 1 })).toMatchObject({
      status: 410,
      body: {
        error: {
          message: `exchange ${oldest - 1} is older than the account's history keeps: the oldest it can go back to before is exchange ${oldest}`,
        },
      },
    })
    expect(await observe(h)).toEqual(before)
    expect((await h.control('rewind', { before: oldest })).status).toBe(200)
    const got = await h.call('keyv.get', {
      query: { bucket: 'b', key: 'k' },
      accept: 'application/json',
    })
    expect((got.json() as string).slice(0, 3)).toBe(`${oldest - 2}x`)
  })
})
