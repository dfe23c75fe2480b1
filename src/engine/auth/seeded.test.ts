import { describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'

/** A seeded account, started: its clock standing, its draws from its generator. */
async function seeded(seed: string) {
  const h = await createHarness({ seed, exchangeLog: 100 })
  await h.engine.start()
  return h
}

/**
 * A run that draws every kind of value: secrets made and rolled, authorizations minted, cursors
 * given, fault rules set and drawn for, a checkpoint taken. Its transcript is every answer, and
 * the values it was given, to present to another account.
 */
async function run(h: Harness) {
  const transcript: unknown[] = []
  const values: Array<{ kind: 'secret' | 'token' | 'cursor'; value: string }> = []
  const made = (await h.control('secrets', {})).body as { id: string; key: string }
  transcript.push(made)
  values.push({ kind: 'secret', value: made.key })
  for (const abilities of [['keyv'], ['keyv'], ['core.ping']]) {
    const token = await h.authorize({ abilities }, made.key)
    transcript.push(token)
    values.push({ kind: 'token', value: token })
  }
  for (const key of ['a', 'b', 'c']) {
    await h.call('keyv.set', { token: made.key, query: { bucket: 'x', key, value: key } })
  }
  const page = await h.call('keyv.scan', { token: made.key, query: { bucket: 'x', count: '1' } })
  const cursor = page.headers.get('x-cursor')!
  transcript.push(page.text, cursor)
  values.push({ kind: 'cursor', value: cursor })
  transcript.push(
    (
      await h.control('faults', {
        kind: 'status',
        status: 503,
        probability: 0.5,
        count: null,
        endpoint: 'core.ping',
      })
    ).body,
  )
  for (let i = 0; i < 16; i++)
    transcript.push((await h.call('core.ping', { token: made.key })).status)
  const rolled = (
    await h.control(`secrets/${made.id}/roll`, { at: (await h.engine.account.now()) + 60 })
  ).body as { key: string }
  transcript.push(rolled)
  values.push({ kind: 'secret', value: rolled.key })
  transcript.push((await h.control('checkpoint', {})).body)
  const answers = (await h.control('exchanges')).body as {
    exchanges: Array<{ response: unknown; trace: unknown }>
  }
  transcript.push(answers.exchanges.map(({ response, trace }) => ({ response, trace })))
  return { transcript, values }
}

describe('a seeded account', { timeout: 20_000 }, () => {
  it('answers the same bytes for the same requests on the same starting state', async () => {
    const first = await seeded('run-42')
    const start = (await first.control('export')).body
    const second = await seeded('another')
    expect((await second.control('import', start)).status).toBe(200)
    expect((await second.control('seed')).body).toEqual({ seed: 'run-42' })
    const a = await run(first)
    const b = await run(second)
    expect(b.transcript).toEqual(a.transcript)
    // The run drew: the faults met some pings and not others.
    const statuses = a.transcript.filter((entry) => typeof entry === 'number')
    expect(new Set(statuses)).toEqual(new Set([200, 503]))
    // Its clock stands still: the run took real time, the account's clock did not move.
    expect((await first.control('clock')).body).toEqual((await second.control('clock')).body)
  })

  it('shares no secret, token or cursor with another of the same seed, and accepts none of its', async () => {
    const mine = await seeded('same')
    const theirs = await seeded('same')
    const a = await run(mine)
    const b = await run(theirs)
    await mine.control('faults/clear', {})
    const given = new Set(a.values.map(({ value }) => value))
    expect(b.values.filter(({ value }) => given.has(value))).toEqual([])
    for (const { kind, value } of b.values) {
      const answer =
        kind === 'cursor'
          ? await mine.call('keyv.scan', { query: { bucket: 'x', cursor: value } })
          : await mine.call('core.ping', { token: value })
      expect({ kind, status: answer.status, text: answer.text }).toEqual({
        kind,
        status: kind === 'cursor' ? 400 : 401,
        text: kind === 'cursor' ? 'cursor is invalid' : 'authorization is invalid',
      })
    }
  })
})
