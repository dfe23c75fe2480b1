import { afterAll, describe, expect, it } from 'vitest'
import { createEngine } from '../engine'
import { startService } from '../node'
import { listen, type Listener } from '../server/http'
import { createMemoryStore } from '../storage/memory-store'
import { remoteService } from './remote'
import type { ServiceControls } from '../client/service-controls'

type Controls = Pick<
  ServiceControls<boolean>,
  'rollSecret' | 'listSecrets' | 'authorize' | 'advanceClock' | 'now'
>

const listeners: Listener[] = []
afterAll(async () => {
  for (const listener of listeners) await listener.stop(0)
})

/** The helpers' two kinds of service: in this process, and over HTTP (the helpers over serve). */
const kinds: Array<[string, () => Promise<Controls & { stop?: () => void }>]> = [
  [
    'in process (startService, useService, the Playwright fixture)',
    async () => startService({ baseUrl: 'https://millis.example.test' }),
  ],
  [
    'over HTTP (useService({ serve }), the Playwright fixture over serve)',
    async () => {
      const engine = createEngine({ store: createMemoryStore(), baseUrl: 'http://127.0.0.1' })
      const [secret] = await engine.start()
      const server = await listen(engine, { port: 0, controlToken: 'millis-control-token' })
      listeners.push(server)
      return remoteService({
        baseUrl: server.url,
        serviceName: 'service',
        secret: secret!,
        send: (request) => fetch(request),
        controlToken: 'millis-control-token',
      })
    },
  ],
]

/** The process warnings `body` caused. */
async function warnings(body: () => Promise<unknown>): Promise<string> {
  const seen: string[] = []
  const listen = (warning: Error) => seen.push(warning.message)
  process.on('warning', listen)
  try {
    await body()
    await new Promise((resolve) => setImmediate(resolve))
  } finally {
    process.off('warning', listen)
  }
  return seen.join('\n')
}

describe.each(kinds)('times that look like milliseconds, %s', (_, open) => {
  it('a moment (rollSecret at, authorize expiry) is refused, saying it in seconds; nothing changes', async () => {
    const service = await open()
    try {
      const [secret] = await service.listSecrets()
      const millis = Date.now() + 60_000
      await expect(service.rollSecret(secret!.id, millis)).rejects.toThrow(
        `\`at' ${millis} looks like milliseconds: the service reads Unix seconds, so it would be past the year 5000; give ${Math.floor(millis / 1000)} (seconds) instead`,
      )
      await expect(service.authorize(['core'], { expiry: millis })).rejects.toThrow(
        `\`expiry' ${millis} looks like milliseconds`,
      )
      expect(await service.listSecrets()).toEqual([secret])
      // The same moments in seconds are taken.
      const seconds = Math.floor(millis / 1000)
      await expect(service.authorize(['core'], { expiry: seconds })).resolves.toEqual(
        expect.any(String),
      )
      const rolled = await service.rollSecret(secret!.id, seconds)
      expect(rolled.id).not.toBe(secret!.id)
    } finally {
      service.stop?.()
    }
  })

  it('a length of time (advanceClock) in whole thousands past a million is flagged, and still applied', async () => {
    const service = await open()
    try {
      const before = await service.now()
      const said = await warnings(() => service.advanceClock(3_600_000))
      expect(said).toContain(
        'advanceClock(3600000) moves the clock 41.7 days: if you meant milliseconds, give 3600 (seconds)',
      )
      expect(await service.now()).toBeGreaterThanOrEqual(before + 3_600_000)
      expect(await warnings(() => service.advanceClock(3600))).toBe('')
    } finally {
      service.stop?.()
    }
  })
})
