// Seeded chaos under Playwright, in a client's project, in process and over serve: a test's
// function runs `runs` times, each run from its own frame, the page's calls faulted as the seed
// says; with a page's client that gives up on a 408, the failure is shrunk and thrown with its
// repro (written to FRESH_CHAOS_FOUND), and the repro given back (SERVICE_PLAYGROUND_CHAOS)
// replays it. Bad options are refused by name before the test's function runs; chaos never
// reaches a test without it. The tests run in order in one worker: a test that must fail is
// read by the next.
import { writeFileSync } from 'node:fs'
import { expect, test } from 'service-playground/playwright'

const RUNS = 4
const REPLAY = process.env.SERVICE_PLAYGROUND_CHAOS
const FOUND = process.env.FRESH_CHAOS_FOUND

test.describe.configure({ mode: 'default' })

test.beforeEach(async ({ page }) => {
  await page.route('https://app.test/', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>app</title>' }),
  )
  await page.goto('https://app.test/')
})

/**
 * `endpoint` called from the page with `token`, arguments in the query, as the page's client
 * does: it retries a 5xx and a 408 (but a buggy one gives up on a 408), counting its calls of
 * each endpoint since `fresh` and keeping each answer's `x-fault`.
 */
const fromPage = (page, service, endpoint, query, buggy = false) =>
  page.evaluate(
    async ({ url, token, endpoint, buggy }) => {
      const counts = (window.calls ??= {})
      for (let attempt = 0; attempt < 8; attempt++) {
        const nth = (counts[endpoint] = (counts[endpoint] ?? 0) + 1)
        const response = await fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        })
        window.faults.push(response.headers.get('x-fault'))
        if (response.status < 500 && response.status !== 408) return response.json()
        if (buggy && response.status === 408) {
          throw new Error(`call ${nth} of ${endpoint} answered ${response.status}`)
        }
      }
      throw new Error(`${endpoint}: no answer in 8 tries`)
    },
    {
      url: `${service.baseUrl}/${endpoint.split('.').join('/')}?${new URLSearchParams(query)}`,
      token: service.secret,
      endpoint,
      buggy,
    },
  )
/** The page is not rewound between runs: its client's counts start again with each. */
const fresh = (page) =>
  page.evaluate(() => {
    window.calls = {}
    window.faults = []
  })

/** Reads a key four times (each run finds it unwritten: it starts from its frame), then writes it. */
async function readsThenWrites(page, service, run, buggy) {
  await fresh(page)
  const key = { bucket: 'chaos', key: 'runs' }
  for (let i = 0; i < 4; i++) {
    expect(await fromPage(page, service, 'keyv.get', key, buggy)).toBeNull()
  }
  await fromPage(page, service, 'keyv.set', { ...key, value: run }, buggy)
  return page.evaluate(() => window.faults)
}

const runs = { good: 0, buggy: 0 }
const faults = []
/** What the buggy client's test failed with. */
let failed

test.describe('under seeded chaos', () => {
  test.use({
    serviceOptions: { chaos: { seed: 'fresh-6', runs: RUNS, kinds: ['status'], rate: 0.5 } },
  })

  test('reruns the test from its own frame, its calls faulted by the seed', async ({
    page,
    service,
  }) => {
    faults.push(...(await readsThenWrites(page, service, ++runs.good, false)))
  })

  test.describe('a client that gives up on a 408', () => {
    test.fail(true, 'chaos finds the bug; the next test reads how')
    test.afterEach(() => {
      failed = test.info().errors[0]?.message
    })
    test('reads then writes', async ({ page, service }) => {
      await readsThenWrites(page, service, ++runs.buggy, true)
    })
  })
})

test('ran every run under chaos, and failed with a repro that replays', () => {
  if (REPLAY) {
    // The named test ran once with exactly the repro's faults, and failed as it did; the
    // other ran once, without any.
    const [fault] = JSON.parse(REPLAY).faults
    const [, endpoint, nth, status] = /^(.+)#(\d+):status\/(\d+)$/.exec(fault)
    expect(runs).toEqual({ good: 1, buggy: 1 })
    expect(failed).toContain(`call ${nth} of ${endpoint} answered ${status}`)
    return
  }
  expect(runs.good).toBe(RUNS)
  // Some calls met a fault, others did not: a draw, never every call.
  expect(faults.filter(Boolean).length).toBeGreaterThan(0)
  expect(faults.filter((fault) => !fault).length).toBeGreaterThan(0)
  for (const fault of faults) expect([null, '408', '500', '502', '503', '504']).toContain(fault)
  // The buggy client's first failing run, shrunk to the one 408 that matters.
  // Its seed draws five 5xx the client retries, then the 408 it gives up on: only the 408 matters.
  expect(failed).toMatch(
    /^(ChaosFailure: )?chaos: run 0 failed: .*call 1 of keyv\.set answered 408/,
  )
  expect(failed).toMatch(
    /^ {2}shrunk from 6 faults to 1 \(1-minimal\) in \d+ reruns: keyv\.set#1:status\/408$/m,
  )
  const line = /^ {2}repro: SERVICE_PLAYGROUND_CHAOS='(.+)'$/m.exec(failed)[1]
  expect(JSON.parse(line)).toMatchObject({
    seed: 'fresh-6',
    test: 'fresh/chaos.spec.js › under seeded chaos › a client that gives up on a 408 › reads then writes',
  })
  if (FOUND) writeFileSync(FOUND, line)
})

test('runs once, without chaos, after a test with it', async ({ page, service }) => {
  await fresh(page)
  const key = { bucket: 'chaos', key: 'runs' }
  for (let i = 0; i < 6; i++) {
    expect(await fromPage(page, service, 'keyv.get', key)).toBeNull()
  }
  await expect(service).toHaveReceived('keyv.get', { times: 6 })
  await expect(service).toHaveReceived(/./, { fault: true, times: 0 })
})

/** What the test with a wrong option failed with, and whether its function ran. */
const refused = { message: undefined, ran: false }

test.describe('with a chaos option that is wrong', () => {
  test.use({ serviceOptions: { chaos: { seed: 'fresh', rate: 1.5 } } })
  test.fail(true, 'refused before the test runs')
  test.afterEach(() => {
    refused.message = test.info().errors[0]?.message
  })
  test('is refused', async ({ service }) => {
    refused.ran = true
    await service.authorize(['core'])
  })
})

test('was refused by name before its function ran', () => {
  expect(refused.ran).toBe(false)
  expect(refused.message).toContain(
    'serviceOptions: chaos.rate must be a number more than 0 and at most 1; got 1.5',
  )
})
