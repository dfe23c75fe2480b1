/**
 * `useService({ serve, chaos })`: the file's account on a running `serve`, every test rerun
 * `runs` times from its own frame, each run's faults set on the account for the call they are
 * addressed to and met by the server's engine; a chaos failure fails the test.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { scenarios } from '../../../examples/chaos-client/scenarios'
import { configure, start } from '../../cli/serve/serve-cli'
import { useService } from '../vitest'

const CONTROL = 'serve-chaos-control-token-0001'
const serve = await start(configure(['--port', '0', '--control-token', CONTROL]))
// Registered first, so that it runs after the helper has removed the account.
afterAll(() => serve.stop())
const RUNS = 6
const service = useService({
  serve: { url: serve.url, controlToken: CONTROL },
  chaos: {
    seed: 'serve',
    runs: RUNS,
    kinds: ['throttle', 'expire', 'truncate', 'status'],
    rate: 0.4,
  },
})

let bodies = 0
const faulted: string[] = []
afterAll(() => {
  expect(bodies).toBe(RUNS)
  // The server's engine met the faults: its answers said so.
  expect(faulted.length).toBeGreaterThan(0)
})

describe('a file under seeded chaos over serve', () => {
  it('runs each test from its own frame, runs times, faults met by the server', async () => {
    bodies++
    const call = (name: string, args: Record<string, unknown>) =>
      fetch(`${service.baseUrl}/keyv/${name}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${service.secret}`,
          'content-type': 'application/vnd.service+json',
          accept: 'application/json',
        },
        body: JSON.stringify(
          Object.entries({ bucket: 'app', ...args }).map(([key, value]) => ['$$', key, value]),
        ),
      }).catch(() => undefined)
    for (let i = 0; i < 4; i++) {
      const read = await call('get', { key: 'visits' })
      const fault = read?.headers.get('x-fault')
      if (fault) faulted.push(fault)
      // A run that began after another's write would read it (a body cut short reads less).
      if (read?.status === 200 && !fault) expect(await read.text()).toBe('null')
    }
    await call('set', { key: 'visits', value: bodies })
  })

  // No hang is drawn here: a client timeout a loaded machine cannot fire on an unfaulted call.
  const served = {
    get baseUrl() {
      return service.baseUrl
    },
    listSecrets: () => service.listSecrets(),
    advanceClock: (seconds: number) => service.advanceClock(seconds),
    timeoutMs: 5_000,
  }
  it('the client with its bugs off passes every run', async () => {
    await scenarios['reads back what it wrote']!(served, {})
  })

  it.fails('a chaos failure fails the test: the client retrying a 429 at once', async () => {
    await scenarios['reads back what it wrote']!(served, { noBackoff: true })
  })
})
