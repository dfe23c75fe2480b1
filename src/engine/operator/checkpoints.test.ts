import { describe, expect, it } from 'vitest'
import { createManualClock } from '../clock'
import { createEngine } from '../engine'
import { createMemoryStore } from '../../storage/memory-store'

const BASE = 'https://frames.example.test'

function setup() {
  const clock = createManualClock()
  const engine = createEngine({
    store: createMemoryStore(),
    clock,
    baseUrl: BASE,
    secrets: ['frames-secret-0001'],
    exchangeLog: 100,
  })
  /** Calls an endpoint with named arguments, as tuples. */
  const call = async (
    path: string,
    args: Record<string, unknown> = {},
    token = 'frames-secret-0001',
  ) => {
    const response = await engine.handle(
      new Request(`${BASE}/${path}`, {
        method: 'POST',
        headers: {
          authorization: `bearer ${token}`,
          'content-type': 'application/vnd.service+json',
          accept: 'application/json',
        },
        body: JSON.stringify(Object.entries(args).map(([name, value]) => ['$$', name, value])),
      }),
    )
    return { status: response.status, body: (await response.json()) as unknown }
  }
  const control = async <T = unknown>(path: string, body?: unknown): Promise<T> => {
    const response = await engine.handle(
      new Request(`${BASE}/_account/${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    )
    const answer = (await response.json()) as T
    if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`)
    return answer
  }
  return { engine, clock, call, control }
}

describe('checkpoints: the account as a stack of frames', () => {
  it('puts back keys, procedures, secrets, clock, faults and journal, keeping what came before', async () => {
    const { engine, call, control } = setup()
    await engine.start()
    // The scope's setup: a key and an authorization that the scope's tests rely on.
    await call('keyv/set', { bucket: 'b', key: 'fixture', value: 'kept' })
    const authorization = await (
      await engine.handle(
        new Request(`${BASE}/auth/create`, {
          method: 'POST',
          headers: {
            authorization: 'bearer frames-secret-0001',
            'content-type': 'application/vnd.service+json',
            accept: 'text/plain',
          },
          body: JSON.stringify([['$$', 'abilities', ['keyv']]]),
        }),
      )
    ).text()
    const before = await control<Array<{ id: string; key: string }>>('secrets')
    const startedAt = (await control<{ now: number }>('clock')).now
    const frame = await control<{ id: string; depth: number }>('checkpoint', {})
    expect(frame.depth).toBe(1)

    // The test: writes, deletes, a procedure, a rolled secret, a new one, time, a fault.
    await call('keyv/set', { bucket: 'b', key: 'mine', value: 'gone after' })
    await call('keyv/delete', { bucket: 'b', key: 'fixture' })
    await call('service/create', { name: 'p', proc: ['{}', ['()', 'core.ping']] })
    await control(`secrets/${before[0]!.id}/roll`, {})
    await control('secrets', { key: 'made-in-the-test-01' })
    await control('clock', { advance: 3600 })
    await control('faults', { status: 503, count: null, endpoint: 'core.echo' })
    expect((await call('keyv/get', { bucket: 'b', key: 'fixture' }, authorization)).status).toBe(
      401,
    )

    expect(await control('restore', { id: frame.id })).toEqual({ depth: 0 })
    expect((await call('keyv/get', { bucket: 'b', key: 'fixture' })).body).toBe('kept')
    expect((await call('keyv/get', { bucket: 'b', key: 'mine' })).body).toBe(null)
    expect(await control('procedures')).toEqual([])
    expect(await control('secrets')).toEqual(before)
    expect((await call('core/ping', {}, 'made-in-the-test-01')).status).toBe(401)
    // The authorization minted in the scope's setup works again: its secret is back.
    expect((await call('keyv/get', { bucket: 'b', key: 'fixture' }, authorization)).body).toBe(
      'kept',
    )
    expect((await control<{ now: number }>('clock')).now).toBe(startedAt)
    expect(await control('faults')).toEqual([])
    // The journal holds what the scope's setup sent, and the calls since the restore.
    const { exchanges } = await control<{ exchanges: unknown[] }>('exchanges')
    const sent = exchanges.map((exchange) => JSON.stringify(exchange))
    expect(sent.filter((text) => text.includes('gone after'))).toEqual([])
    expect(sent.filter((text) => text.includes('kept'))).not.toEqual([])
  })

  it('nests: restoring an outer frame removes the inner ones, and ids are single-use', async () => {
    const { engine, call, control } = setup()
    await engine.start()
    const outer = await control<{ id: string }>('checkpoint', {})
    await call('keyv/set', { bucket: 'b', key: 'describe', value: 1 })
    const inner = await control<{ id: string; depth: number }>('checkpoint', {})
    expect(inner.depth).toBe(2)
    await call('keyv/set', { bucket: 'b', key: 'test', value: 2 })
    await control('restore', { id: inner.id })
    expect((await call('keyv/get', { bucket: 'b', key: 'describe' })).body).toBe(1)
    expect((await call('keyv/get', { bucket: 'b', key: 'test' })).body).toBe(null)
    const again = await control<{ id: string }>('checkpoint', {})
    await control('restore', { id: outer.id })
    expect((await call('keyv/get', { bucket: 'b', key: 'describe' })).body).toBe(null)
    expect(await control('checkpoints')).toEqual([])
    await expect(control('restore', { id: again.id })).rejects.toThrow(/404.*no checkpoint/)
    await expect(control('restore', {})).rejects.toThrow(/400.*`id' is required/)
  })

  it('survives a reset inside the frame: the frame still brings back its state', async () => {
    const { engine, call, control } = setup()
    await engine.start()
    await call('keyv/set', { bucket: 'b', key: 'fixture', value: 'kept' })
    const frame = await control<{ id: string }>('checkpoint', {})
    await control('reset', {})
    expect((await call('keyv/get', { bucket: 'b', key: 'fixture' })).body).toBe(null)
    expect(await control('checkpoints')).toHaveLength(1)
    await control('restore', { id: frame.id })
    expect((await call('keyv/get', { bucket: 'b', key: 'fixture' })).body).toBe('kept')
  })

  it('moves a manual clock back to where it stood, however it was moved', async () => {
    const { engine, clock, control } = setup()
    await engine.start()
    const frame = await control<{ id: string }>('checkpoint', {})
    const at = clock.now()
    clock.advance(5000)
    await control('clock', { advance: 60 })
    await control('restore', { id: frame.id })
    expect(clock.now()).toBe(at)
    expect((await control<{ now: number }>('clock')).now).toBe(at / 1000)
  })
})
