import { deflateRawSync } from 'node:zlib'
import type { BrowserContext } from '@playwright/test'
import { expect, expectNoHorizontalOverflow, openView, playgroundUrl, test } from './fixtures'

/**
 * Every request of `context` that would reach the network at the base URL's origin, recorded
 * and refused there: whatever the service worker answers never reaches this route.
 */
async function networkAt(context: BrowserContext, baseUrl: string): Promise<string[]> {
  const reached: string[] = []
  await context.route(`${new URL(baseUrl).origin}/**`, (route) => {
    reached.push(`${route.request().method()} ${route.request().url()}`)
    return route.abort('internetdisconnected')
  })
  return reached
}

test('a refused step shared from the log opens offline in a new tab, replayed on a throwaway account', async ({
  app,
  wire,
  account,
  context,
}) => {
  // Two pages, a replay and a cold tab offline: room for a loaded machine.
  test.setTimeout(180_000)
  const { page } = app
  const [secret] = await account.secrets()
  const minted = await wire.call('auth.create', {
    token: secret!.key,
    contentType: 'application/json',
    accept: 'text/plain',
    body: JSON.stringify(null),
    query: 'abilities=keyv.get',
  })
  expect(minted.status, minted.body).toBe(200)
  const token = minted.body
  const refused = await wire.call('core.ping', { token })
  expect(refused.status).toBe(401)

  await openView(page, 'Exchange log')
  const rows = page.getByTestId('exchange-row')
  await expect(rows).toHaveCount(2)
  await rows
    .first()
    .getByRole('button', { name: /^Share exchange/ })
    .click()
  const link = await page.getByTestId('shared-link').inputValue()
  expect(link).toMatch(/#r=v1\.[A-Za-z0-9_-]+$/)
  expect(link).not.toContain(secret!.key)
  expect(link).not.toContain(token)
  expect(link.length).toBeLessThanOrEqual(2000)

  const ownLog = JSON.parse((await wire.fetch('_account/exchanges')).body).exchanges.length
  await expect(page.locator('html[data-offline="ready"]')).toBeAttached()
  await context.setOffline(true)
  const opened = await context.newPage()
  await opened.goto(link)
  expect(await opened.evaluate(() => navigator.onLine)).toBe(false)
  const shared = opened.getByTestId('step-link')
  await expect(shared.getByRole('heading', { name: /A shared step: step \d+ of/ })).toBeVisible({
    timeout: 15_000,
  })
  await expect(shared.getByTestId('link-same')).toBeVisible()
  const detail = shared.getByTestId('exchange-detail')
  await expect(detail.getByRole('heading', { name: /core\.ping/ })).toBeVisible()
  await expect(detail).toContainText('401')
  // The decision trace, and the counterfactual beside the refusal.
  await expect(detail).toContainText('core.ping')
  await expect(detail.getByTestId('counterfactual').first()).toContainText('core.ping')
  await expect(shared.getByTestId('link-steps').getByRole('button')).toHaveCount(2)
  await opened.setViewportSize({ width: 1280, height: 1700 })
  await expectNoHorizontalOverflow(opened, 'the shared step')
  await shared.getByTestId('link-steps').getByRole('button').first().click()
  await expect(detail.getByRole('heading', { name: /auth\.create/ })).toBeVisible()

  // The person's own account: the same secrets and the same log as before the link was opened.
  expect((await account.secrets()).map(({ id }) => id)).toEqual([secret!.id])
  const after = JSON.parse((await wire.fetch('_account/exchanges')).body).exchanges.length
  expect(after).toBe(ownLog)
})

test('a link that is cut, garbled, of another version or far too long says so, and the page stays usable', async ({
  app,
}) => {
  const { page } = app
  const cases: Array<[string, RegExp]> = [
    ['v1.', /none at all/],
    ['v1.%%%', /characters base64url does not have/],
    ['v1.' + 'q1Yq', /cut short or garbled/],
    ['v7.abc', /format v7, and this playground reads v1/],
    ['hello', /does not start with v1/],
    ['v1.' + 'A'.repeat(2 * 1024 * 1024), /more than the 200000/],
  ]
  for (const [value, message] of cases) {
    await page.evaluate((hash) => (window.location.hash = hash), `r=${value}`)
    await expect(page.getByTestId('link-error')).toContainText(message, { timeout: 15_000 })
  }
  await openView(page, 'Secrets')
  await expect(page.getByRole('heading', { name: 'Secrets' })).toBeVisible()
  await expect(page.getByTestId('link-error')).toHaveCount(0)
})

test('a link made by another engine version replays anyway and names the first step that answers otherwise', async ({
  app,
}) => {
  const { page } = app
  const payload = {
    v: 1,
    engine: '0.0.9',
    case: {
      name: 'made elsewhere',
      steps: [
        { call: 'core.ping', expect: { status: 200, result: false } },
        { call: 'no.such.endpoint', expect: { status: 200 } },
      ],
    },
  }
  // Packed here with the platform's own deflate, apart from the code under test.
  const value = await page.evaluate(async (json) => {
    const stream = new Blob([json]).stream().pipeThrough(new CompressionStream('deflate-raw'))
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer())
    const base64 = btoa(String.fromCharCode(...bytes))
    return `v1.${base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`
  }, JSON.stringify(payload))
  await page.evaluate((hash) => (window.location.hash = hash), `r=${value}`)
  const shared = page.getByTestId('step-link')
  await expect(shared.getByTestId('link-engine')).toContainText(
    /0\.0\.9 \(this playground runs \d/,
    {
      timeout: 15_000,
    },
  )
  await expect(shared.getByTestId('link-differs')).toContainText('Step 1 (core.ping)')
  await expect(shared.getByTestId('link-differs')).toContainText('expected result false, got true')
  const detail = shared.getByTestId('exchange-detail')
  await expect(detail.getByRole('heading', { name: /no\.such\.endpoint/ })).toBeVisible()
  await expect(detail).toContainText('404')
})

test('a link opened cold, and the playground behind it, send nothing to the base URL', async ({
  page,
  context,
  config,
  consoleProblems,
}) => {
  // Packed here with Node's own raw deflate, apart from the code under test.
  const payload = {
    v: 1,
    engine: '0.0.1',
    case: {
      name: 'opened cold',
      steps: [
        { call: 'core.ping', expect: { status: 200 } },
        { call: 'no.such.endpoint', expect: { status: 404 } },
      ],
    },
  }
  const value = `v1.${deflateRawSync(JSON.stringify(payload)).toString('base64url')}`

  // A browser that never opened the playground: no worker, no cache. Its worker's script comes
  // late (a slow network, a loaded machine): the page is not controlled while the step shows.
  const reached = await networkAt(context, config.baseUrl)
  let workerCame!: () => void
  const late = new Promise<void>((resolve) => (workerCame = resolve))
  await context.route('**/app-worker.js', async (route) => {
    await late
    await route.continue()
  })
  await page.goto(`${playgroundUrl(config)}#r=${value}`)
  const shared = page.getByTestId('step-link')
  await expect(shared.getByTestId('exchange-detail')).toContainText('404')
  // The refused step's counterfactual reads the person's virtual clock, as every view's does.
  await expect(shared.getByTestId('counterfactual').first()).toBeVisible()
  workerCame()
  // The page's own service starts behind the step; the console is offered with its secrets.
  await expect(page.locator('html[data-ready="true"]')).toBeAttached()
  await expect(shared.getByTestId('open-in-console').getByRole('option')).not.toHaveCount(0)
  // Then the playground itself: its header's clock, the view's queries.
  await openView(page, 'Secrets')
  await expect(page.getByTestId('secret-row')).toHaveCount(1)
  expect(reached).toEqual([])
  expect(consoleProblems).toEqual([])
})
