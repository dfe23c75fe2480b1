// A test that fakes its timers moves its own time, not the service's: the service's clock
// moves only by advanceClock, and a delay fault waits in real time, in process as over serve.
import { afterEach, expect, it, vi } from 'vitest'
import { useService } from 'service-playground/vitest'
import { call, serviceOptions } from './setup/target.js'

const proc = useService(serviceOptions())

afterEach(() => {
  vi.useRealTimers()
})

it('keeps the service on real time while the test fakes it', async () => {
  const token = await proc.authorize(['core'], { ttl: 60 })
  const before = await proc.now()
  vi.useFakeTimers()
  vi.setSystemTime(new Date('2040-01-01T00:00:00Z'))
  vi.advanceTimersByTime(120_000)
  expect(Math.abs((await proc.now()) - before)).toBeLessThan(60)
  expect((await call(proc.baseUrl, 'core.ping', token)).status).toBe(200)
  await proc.advanceClock(61)
  const expired = await call(proc.baseUrl, 'core.ping', token)
  expect([expired.status, await expired.json()]).toEqual([
    401,
    [['!!', { message: 'authorization is expired' }]],
  ])
})

it('waits out a delay fault in real time', async () => {
  vi.useFakeTimers()
  await proc.fault({ kind: 'delay', delayMs: 50, endpoint: 'core.ping' })
  const answer = await call(proc.baseUrl, 'core.ping', proc.secret)
  expect([answer.status, answer.headers.get('x-fault')]).toEqual([200, 'delay'])
})
