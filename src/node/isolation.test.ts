import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createManualClock } from '../engine'
import { startService, type Service } from './index'

const BASE = 'https://isolation.example.test'

/** keyv.get/set through fetch, as any client in the process would. */
async function keyv(service: Service, name: 'get' | 'set', args: Record<string, unknown>) {
  const response = await fetch(`${BASE}/keyv/${name}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${service.secret}`,
      'content-type': 'application/vnd.service+json',
      accept: 'application/json',
    },
    body: JSON.stringify(Object.entries(args).map(([key, value]) => ['$$', key, value])),
  })
  return response.json() as Promise<unknown>
}

describe('a service as a stack of frames, and copies for concurrent code', () => {
  let service: Service
  beforeAll(async () => {
    service = await startService({ baseUrl: BASE, clock: createManualClock() })
  })
  afterAll(() => service.stop())

  it('restores a checkpoint: what was written after it is gone, what came before stays', async () => {
    await keyv(service, 'set', { bucket: 'b', key: 'fixture', value: 1 })
    const { id, depth } = await service.checkpoint()
    expect(depth).toBe(1)
    await keyv(service, 'set', { bucket: 'b', key: 'test', value: 2 })
    service.fault({ status: 503, endpoint: 'core.ping', count: null })
    await service.advanceClock(60)
    expect(service.requests({ args: { key: 'test' } })).toHaveLength(1)
    await service.restore(id)
    expect(service.requests({ args: { key: 'test' } })).toHaveLength(0)
    expect(service.requests({ args: { key: 'fixture' } })).toHaveLength(1)
    expect(await keyv(service, 'get', { bucket: 'b', key: 'fixture' })).toBe(1)
    expect(await keyv(service, 'get', { bucket: 'b', key: 'test' })).toBe(null)
    await service.reset()
  })

  it('gives each isolated function its own copy, however they interleave', async () => {
    await keyv(service, 'set', { bucket: 'b', key: 'shared', value: 'from the setup' })
    const token = await service.authorize(['keyv'])
    const run = (value: number) =>
      service.isolated(async () => {
        expect(await keyv(service, 'get', { bucket: 'b', key: 'shared' })).toBe('from the setup')
        await keyv(service, 'set', { bucket: 'b', key: 'mine', value })
        // Yield to the other copy between the write and the read.
        await new Promise((resolve) => setTimeout(resolve, 20))
        await service.advanceClock(value)
        service.fault({ status: 500, endpoint: 'core.echo', once: true })
        return {
          read: await keyv(service, 'get', { bucket: 'b', key: 'mine' }),
          requests: service.requests().map((request) => request.endpoint),
          now: await service.now(),
          // An authorization minted before the copy was made works in it.
          minted: await fetch(`${BASE}/keyv/get?bucket=b&key=shared`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
          }).then((response) => response.json()),
        }
      })()
    const started = await service.now()
    const [one, two] = await Promise.all([run(1), run(2)])
    expect([one.read, two.read]).toEqual([1, 2])
    expect([one.minted, two.minted]).toEqual(['from the setup', 'from the setup'])
    expect([one.now - started, two.now - started]).toEqual([1, 2])
    expect(one.requests).toEqual(two.requests)
    // Each copy's journal holds its own requests alone.
    expect(one.requests).toEqual(['keyv.get', 'keyv.set', 'keyv.get'])
    // The service itself saw none of it.
    expect(await keyv(service, 'get', { bucket: 'b', key: 'mine' })).toBe(null)
    expect(await service.now()).toBe(started)
    await service.reset()
  })
})

describe('what startService refuses', () => {
  it('refuses an option it does not know, naming those it takes', async () => {
    await expect(
      startService({ baseUrl: 'https://typo.example.test', secret: ['x'] } as never),
    ).rejects.toThrow(/unknown option `secret'; it takes baseUrl, serviceName, secrets/)
  })

  it('refuses a second service on a base URL a service in this process answers', async () => {
    const first = await startService({ baseUrl: 'https://twice.example.test' })
    try {
      await expect(startService({ baseUrl: 'https://twice.example.test/' })).rejects.toThrow(
        /already answers https:\/\/twice\.example\.test in this process/,
      )
    } finally {
      first.stop()
    }
    const again = await startService({ baseUrl: 'https://twice.example.test' })
    again.stop()
  })
})

describe('times that look like milliseconds', () => {
  it('are refused for a moment and flagged for a length of time', async () => {
    const service = await startService({ baseUrl: 'https://millis.example.test' })
    try {
      const [secret] = await service.listSecrets()
      await expect(service.rollSecret(secret!.id, Date.now() + 60_000)).rejects.toThrow(
        /`at' \d+ looks like milliseconds.*give \d+ \(seconds\)/,
      )
      await expect(service.authorize(['core'], { expiry: Date.now() + 60_000 })).rejects.toThrow(
        /`expiry' \d+ looks like milliseconds/,
      )
      const warnings: string[] = []
      const listen = (warning: Error) => warnings.push(warning.message)
      process.on('warning', listen)
      await service.advanceClock(3_600_000)
      await new Promise((resolve) => setImmediate(resolve))
      process.off('warning', listen)
      expect(warnings.join('\n')).toMatch(
        /advanceClock\(3600000\).*if you meant milliseconds, give 3600/,
      )
    } finally {
      service.stop()
    }
  })
})
