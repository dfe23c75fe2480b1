// The fault table's columns met in Chromium: a page under the kit's Playwright fixture (the
// engine in the test's process, and a worker's account on a real `serve`) and the playground
// (its service worker). Node and HTTP: src/testing/fault-table.test.ts.
import { expect, test as base, type Page } from '@playwright/test'
import type { FaultKind } from '../src/engine'
import { test as kit } from '../src/kit/playwright'
import { spawnServe } from '../src/server/spawn-serve'
import {
  FAULT_KINDS,
  FAULT_RULES,
  judge,
  probe,
  PROBE_BODY,
  type FaultTarget,
  type Observation,
} from '../src/testing/fault-table'
import { defaultConfig, playgroundUrl } from './fixtures'

type Observed = Parameters<typeof judge>[1]

/** A page on a public origin of its own, as a client's app is: its calls are cross-origin. */
async function appPage(page: Page): Promise<void> {
  await page.route('https://app.test/', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>app</title>' }),
  )
  await page.goto('https://app.test/')
}

/** Meets every kind once from the page, reading what the journal kept after each. */
async function meetEveryKind(
  page: Page,
  baseUrl: string,
  token: string,
  fault: (kind: FaultKind) => Promise<unknown>,
  lastJournaled: () => Promise<{ status: number; fault: string | null }>,
): Promise<Observed> {
  const observed = {} as Observed
  for (const kind of FAULT_KINDS) {
    await fault(kind)
    const observation: Observation = await page.evaluate(probe, {
      url: `${baseUrl}/core/echo`,
      token,
      body: PROBE_BODY,
    })
    observed[kind] = { observation, journaled: await lastJournaled() }
  }
  return observed
}

const expectColumn = (target: FaultTarget, observed: Observed) =>
  expect(judge(target, observed), JSON.stringify(observed, null, 1)).toEqual([])

kit.describe('a page under the Playwright fixture', () => {
  kit.use({ serviceOptions: { baseUrl: 'https://faults.page.test' } })

  kit(
    'meets each fault as the table says, with the engine in the test process',
    async ({ page, service }) => {
      await appPage(page)
      const observed = await meetEveryKind(
        page,
        service.baseUrl,
        service.secret,
        (kind) => service.fault(FAULT_RULES[kind]),
        async () => {
          const last = (await service.requests()).at(-1)!
          return { status: last.status, fault: last.fault }
        },
      )
      expectColumn('page', observed)
    },
  )
})

const overServe = kit.extend({
  serveTarget: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await spawnServe(['--port', '0'], { command: ['npm', 'run', 'serve', '--'] })
      await use({ url: server.url, controlToken: server.controlToken })
      await server.stop()
    },
    { scope: 'worker' },
  ],
})

overServe(
  'a page under the Playwright fixture over serve meets each fault as the table says, none failing the test',
  async ({ page, service }) => {
    await appPage(page)
    const observed = await meetEveryKind(
      page,
      service.baseUrl,
      service.secret,
      (kind) => service.fault(FAULT_RULES[kind]),
      async () => {
        const last = (await service.requests()).at(-1)!
        return { status: last.status, fault: last.fault }
      },
    )
    expectColumn('page-serve', observed)
  },
)

base(
  'the playground meets each fault as the table says, through its service worker',
  async ({ page }) => {
    const { baseUrl } = defaultConfig
    await page.goto(playgroundUrl(defaultConfig))
    await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 15_000 })
    /** The page's own control plane, from inside the page as its views reach it. */
    const control = (path: string, body?: object) =>
      page.evaluate(
        async ({ url, body }) => {
          const response = await fetch(url, {
            method: body ? 'POST' : 'GET',
            ...(body
              ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
              : {}),
          })
          if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`)
          return (await response.json()) as unknown
        },
        { url: `${baseUrl}/_account/${path}`, body },
      )
    const [secret] = (await control('secrets')) as Array<{ key: string }>
    await control('exchanges', { capacity: 100 })
    const observed = await meetEveryKind(
      page,
      baseUrl,
      secret!.key,
      (kind) => control('faults', FAULT_RULES[kind]),
      async () => {
        const { exchanges } = (await control('exchanges')) as {
          exchanges: Array<{ response: { status: number; headers: Array<[string, string]> } }>
        }
        const { response } = exchanges[0]!
        const fault = response.headers.find(([name]) => name === 'x-fault')?.[1] ?? null
        return { status: response.status, fault }
      },
    )
    expectColumn('playground', observed)
  },
)
