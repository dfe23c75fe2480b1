// Seeded chaos in a client's project, under Vitest and Jest, in process and over serve: each
// test runs `runs` times, each run from the test's own frame, its calls faulted as the seed says
// and answered with the fault by the service (`x-fault`).
import { afterAll, expect, it } from 'vitest'
import { useService } from 'service-playground/vitest'
import { call, serviceOptions } from './setup/target.js'

const RUNS = 5
const proc = useService({
  ...serviceOptions(),
  chaos: { seed: 'fresh', runs: RUNS, kinds: ['status'], rate: 0.5 },
})

let runs = 0
const answers = []
afterAll(() => {
  expect(runs).toBe(RUNS)
  // Some calls met a fault, others did not: a draw, never every call.
  expect(answers.filter((answer) => answer.fault).length).toBeGreaterThan(0)
  expect(answers.filter((answer) => !answer.fault).length).toBeGreaterThan(0)
  for (const { status, fault } of answers) {
    expect(fault ? [408, 500, 502, 503, 504].map(String) : [null]).toContain(fault)
    if (fault) expect(String(status)).toBe(fault)
  }
})

it('reruns the test from its own frame, its calls faulted by the seed', async () => {
  runs++
  const key = [
    ['$$', 'bucket', 'chaos'],
    ['$$', 'key', 'runs'],
  ]
  for (let i = 0; i < 4; i++) {
    const read = await call(proc.baseUrl, 'keyv.get', proc.secret, key)
    const fault = read.headers.get('x-fault')
    answers.push({ status: read.status, fault })
    // Each run starts from the frame: what an earlier run wrote is gone.
    if (!fault) expect(await read.json()).toEqual([['<<', null]])
  }
  await call(proc.baseUrl, 'keyv.set', proc.secret, [...key, ['$$', 'value', runs]])
})
