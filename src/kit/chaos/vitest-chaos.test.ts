/**
 * `useService({ chaos })` under Vitest, in process: every test of the file runs `runs` times
 * from its own frame, and a chaos failure fails the test.
 */
import { afterAll, describe, expect, it, vi } from 'vitest'
import { scenarios } from '../../../examples/chaos-client/scenarios'
import { useService } from '../vitest'

const RUNS = 6
// Registered before useService's own hooks, this runs after them (hooks run as a stack): after
// the file's report was printed, once its service had stopped.
const log = vi.spyOn(console, 'log')
let secret = ''
afterAll(() => {
  const printed = log.mock.calls.map((call) => String(call[0])).join('\n')
  log.mockRestore()
  expect(printed).toMatch(
    /^chaos \(seed kit\): 3 tests × 6 runs \(\d+ runs\), 1 failed, in 1 cause\n {2}cause 1: keyv\.get#\d+:throttle\/1 \(1-minimal\)\n {4}keyv\.get answered 429/m,
  )
  expect(printed).toContain(
    '✗ src/kit/chaos/vitest-chaos.test.ts › a file under seeded chaos › a chaos failure fails the test',
  )
  expect(secret.length).toBeGreaterThan(8)
  expect(printed).not.toContain(secret)
})
const service = useService({
  baseUrl: 'https://vitest-chaos.example.test',
  chaos: { seed: 'kit', runs: RUNS, kinds: ['throttle', 'expire', 'truncate', 'status'] },
})

let bodies = 0
const seen: unknown[] = []

/** keyv.get or keyv.set in the app bucket with the secret: its value, or undefined if faulted. */
async function keyv(name: 'get' | 'set', args: Record<string, unknown>) {
  try {
    const response = await fetch(`${service.baseUrl}/keyv/${name}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${service.secret}`,
        'content-type': 'application/vnd.service+json',
        accept: 'application/json',
      },
      body: JSON.stringify(
        Object.entries({ bucket: 'app', ...args }).map(([key, value]) => ['$$', key, value]),
      ),
    })
    return response.status === 200 ? ((await response.json()) as unknown) : undefined
  } catch {
    return undefined
  }
}
afterAll(() => {
  // Each test's body ran once per run: RUNS for each of the two tests below.
  expect(bodies).toBe(2 * RUNS)
})

describe('a file under seeded chaos', () => {
  it('runs each test from its own frame, runs times', async () => {
    bodies++
    secret = service.secret
    // Each run reads the key, then writes it: a run that began after another's write would
    // read it. Faults may cut any call short; what a read does answer must be the frame's.
    const read = await keyv('get', { key: 'visits' })
    if (read !== undefined) seen.push(read)
    await keyv('set', { key: 'visits', value: bodies })
    expect(seen.every((value) => value === null)).toBe(true)
  })

  it('the client with its bugs off passes every run', async () => {
    bodies++
    await scenarios['reads back what it wrote']!(service, {})
  })

  it.fails('a chaos failure fails the test: the client retrying a 429 at once', async () => {
    await scenarios['reads back what it wrote']!(service, { noBackoff: true })
  })
})
