import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, openView, test, type Wire } from './fixtures'

/** An authorization minted through the wire with `key`, as any code in the page would. */
async function mint(wire: Wire, key: string, abilities: string[], extra = ''): Promise<string> {
  const made = await wire.call('auth.create', {
    token: key,
    contentType: 'application/vnd.service+json',
    accept: 'text/plain',
    body: `[["$$","abilities",${JSON.stringify(abilities)}]${extra}]`,
  })
  expect(made.status, made.body).toBe(200)
  return made.body
}

/** What a real call of `endpoint` needs so that only authorization can refuse it. */
function realCall(endpoint: string): { query?: string; body?: string } {
  if (endpoint === 'keyv.scan') return { query: 'bucket=users&prefix=alice/' }
  if (endpoint.startsWith('keyv.')) return { query: 'bucket=users&key=alice/1&value=1' }
  if (endpoint.startsWith('type.string.')) return { body: 'hello', query: 'length=2&value=x' }
  return { body: '' }
}

/** The inspector, on a token this page remembers, by its label in the menu. */
async function inspectRemembered(page: Page, label: RegExp) {
  const pick = page.getByRole('combobox', { name: 'Pick a token this page knows' })
  const option = pick.locator('option', { hasText: label })
  await expect(option).toHaveCount(1)
  await pick.selectOption((await option.getAttribute('value'))!)
  await expect(page.getByTestId('reach-count')).toBeVisible()
}

/** Sends the console's form and answers the status it shows. */
async function sendInConsole(page: Page): Promise<string> {
  await expect(page.getByRole('heading', { name: 'Console' })).toBeVisible()
  await page.getByRole('button', { name: 'Send' }).click()
  const status = page.getByTestId('answer-status')
  await expect(status).toHaveText(/^\d{3} /)
  return (await status.textContent())!
}

test('the grid agrees with real calls, and its console links make them', async ({
  app,
  wire,
  account,
}) => {
  const { page } = app
  const [secret] = await account.secrets()
  await mint(wire, secret!.key, ['type.string', 'keyv.get?bucket=users&prefix=alice/'])
  await openView(page, 'Authorizations')
  await expect(page.getByTestId('authorization-row')).toHaveCount(1)
  await inspectRemembered(page, /^Authorization \[type\.string/)

  // Every endpoint the grid lists, called for real through the service worker with the same
  // token: refused in the grid is a 401 on the wire, allowed is anything but.
  const token = await page.evaluate(() => {
    const link = document.querySelector<HTMLAnchorElement>(
      '[data-testid="reach-endpoint"] a.reach-try',
    )
    return decodeURIComponent(new URLSearchParams(link!.hash.split('?')[1]).get('token')!)
  })
  expect(token).toMatch(/^authorization:/)
  const rows = await page
    .getByTestId('reach-endpoint')
    .evaluateAll((elements) =>
      elements.map(
        (e) => [e.getAttribute('data-endpoint')!, e.getAttribute('data-decision')!] as const,
      ),
    )
  const catalogue = JSON.parse((await wire.fetch('_account/endpoints')).body) as unknown[]
  expect(rows).toHaveLength(catalogue.length)
  const allowed = rows.filter(([, decision]) => decision === 'allowed').map(([name]) => name)
  expect(allowed.sort()).toEqual([
    'keyv.get',
    'type.string.append',
    'type.string.capitalize',
    'type.string.downcase',
    'type.string.length',
    'type.string.reverse',
    'type.string.truncate',
    'type.string.upcase',
  ])
  for (const [endpoint, decision] of rows) {
    // Calls that would wait or change the account are left to the console below.
    if (endpoint === 'core.sleep') continue
    const answer = await wire.call(endpoint, {
      token: token.slice('authorization:'.length),
      ...realCall(endpoint),
    })
    expect(answer.status === 401 ? 'refused' : 'allowed', `${endpoint}: ${answer.body}`).toBe(
      decision,
    )
  }

  // From the grid to the console: an allowed endpoint answers, a refused one is refused with
  // what would have let it in.
  await page
    .locator('[data-testid="reach-endpoint"][data-endpoint="type.string.reverse"] a.reach-try')
    .click()
  await page.getByRole('textbox', { name: 'Input' }).fill('hello')
  expect(await sendInConsole(page)).toBe('200 OK')
  await expect(page.getByTestId('answer-value')).toHaveText('olleh')
  await page.goBack()
  await page
    .locator('[data-testid="reach-endpoint"][data-endpoint="core.ping"] a.reach-try')
    .click()
  expect(await sendInConsole(page)).toBe('401 Unauthorized')
  const counterfactual = page.getByTestId('refusal-reason').getByTestId('counterfactual')
  await expect(counterfactual).toContainText(
    'What would have let it in: an authorization holding core.ping (or core) would have been let in',
  )
  // Its link composes the refused token again, with that ability added and all else kept.
  await counterfactual
    .getByRole('link', { name: /Compose an authorization with core\.ping/ })
    .click()
  await expect(
    page.getByRole('list', { name: 'Abilities to grant' }).locator('li code'),
  ).toHaveText(['type.string', 'keyv.get?bucket=users&prefix=alice/', 'core.ping'])
  await expect(page.getByTestId('composition-origin')).toContainText(
    'From the refused authorization.',
  )
})

test("the diff's counterexample does in the console what the diff says", async ({
  app,
  wire,
  account,
}) => {
  const { page } = app
  const [secret] = await account.secrets()
  await mint(wire, secret!.key, ['keyv.get?bucket=users&prefix=alice/'])
  await mint(wire, secret!.key, ['keyv.get?bucket=users', 'core.ping'])
  await openView(page, 'Authorizations')
  await expect(page.getByTestId('authorization-row')).toHaveCount(2)
  const diff = page.getByTestId('token-diff')
  const choose = async (field: string, label: RegExp) => {
    const select = diff.getByRole('combobox', { name: field })
    const value = await select.locator('option', { hasText: label }).getAttribute('value')
    await select.selectOption(value!)
  }
  await choose('Token A', /prefix=alice\//)
  await choose('Token B', /\[keyv\.get\?bucket=users, core\.ping\]/)
  const limit = diff.locator(
    '[data-testid="diff-gained"] [data-testid="diff-item"][data-kind="limit"]',
  )
  await expect(limit).toHaveCount(1)
  await expect(limit.getByTestId('diff-proof')).toHaveText(
    'B: 200 allowed · A: 401 refused (outside_limit)',
  )
  await expect(
    diff.locator(
      '[data-testid="diff-gained"] [data-testid="diff-item"][data-endpoint="core.ping"]',
    ),
  ).toHaveCount(1)
  await expect(diff.getByTestId('diff-lost')).toContainText('Nothing.')

  // B, let in.
  await limit.getByRole('link', { name: 'Open with B in the console' }).click()
  expect(await sendInConsole(page)).toBe('200 OK')
  await page.goBack()
  // A, refused, with the change that would have let it in.
  await page
    .locator('[data-testid="diff-gained"] [data-testid="diff-item"][data-kind="limit"]')
    .getByRole('link', { name: 'Open with A in the console' })
    .click()
  expect(await sendInConsole(page)).toBe('401 Unauthorized')
  await expect(page.getByTestId('refusal-reason')).toContainText('outside_limit')
  await expect(page.getByTestId('refusal-reason').getByTestId('counterfactual')).toContainText(
    'widened to keyv.get?bucket=users would reach bucket users',
  )
  // The same refusal in the log's trace.
  await page.getByRole('link', { name: 'See in the exchange log' }).click()
  await expect(page.getByTestId('trace-call').getByTestId('counterfactual')).toContainText(
    'widened to keyv.get?bucket=users would reach bucket users',
  )
})

test('the Coverage view reflects the exchanges just made', async ({ app, wire, account }) => {
  const { page } = app
  await openView(page, 'Coverage')
  await expect(page.getByTestId('coverage-empty')).toBeVisible()
  const [secret] = await account.secrets()
  const token = await mint(
    wire,
    secret!.key,
    ['keyv.get?bucket=notes', 'core.ping'],
    ',["$$","ttl",60]',
  )
  await wire.call('keyv.get', { token, query: 'bucket=notes&key=a' })
  await wire.call('core.ping', { token: secret!.key })
  await expect(page.getByTestId('coverage-read')).toHaveText(/^From 3 calls in 3 exchanges/)
  const flags = page.getByTestId('coverage-flag')
  await expect(page.getByTestId('flags-code_never_met')).toContainText('outside_limit')
  await expect(flags.filter({ hasText: 'core.ping' }).first()).toBeVisible()

  // Outside the limit, and the token expired: both met now, the view follows.
  await wire.call('keyv.get', { token, query: 'bucket=other&key=a' })
  await account.advance(61)
  await wire.call('core.ping', { token })
  await expect(page.getByTestId('coverage-read')).toHaveText(/^From 5 calls in 5 exchanges/)
  const get = page.locator('[data-testid="coverage-endpoint"][data-endpoint="keyv.get"]')
  await expect(get.getByTestId('coverage-cell')).toHaveText([
    /^authorizationallowed1bucket 1, expiry 1$/,
    /^authorizationoutside_limit1bucket 1, expiry 1$/,
  ])
  await expect(
    page.locator('[data-testid="coverage-refusal"][data-code="expired"] td').nth(1),
  ).toHaveText('1')
  await expect(page.locator('[data-subject="outside_limit"]')).toHaveCount(0)
  await expect(page.locator('[data-subject="expired"]')).toHaveCount(0)
})

test('what a token can do, two tokens compared and coverage are clean for axe', async ({
  app,
  wire,
  account,
}) => {
  const { page } = app
  const [secret] = await account.secrets()
  await mint(
    wire,
    secret!.key,
    ['auth.create', 'keyv.get?bucket=users&prefix=alice/'],
    ',["$$","insecure",true]',
  )
  await mint(wire, secret!.key, ['type'], ',["$$","ttl",3600]')
  await openView(page, 'Authorizations')
  await expect(page.getByTestId('authorization-row')).toHaveCount(2)
  await inspectRemembered(page, /^Authorization \[auth\.create/)
  const diff = page.getByTestId('token-diff')
  for (const [field, index] of [
    ['Token A', 1],
    ['Token B', 2],
  ] as const) {
    const select = diff.getByRole('combobox', { name: field })
    const values = await select
      .locator('option')
      .evaluateAll((options) =>
        options
          .map((o) => (o as HTMLOptionElement).value)
          .filter((v) => v.startsWith('authorization:')),
      )
    await select.selectOption(values[index - 1]!)
  }
  await expect(diff.getByTestId('diff-item').first()).toBeVisible()
  const authorizations = await new AxeBuilder({ page }).include('main').analyze()
  expect(authorizations.violations.map((v) => `${v.id}: ${v.nodes[0]?.target}`)).toEqual([])

  await openView(page, 'Coverage')
  await expect(page.getByTestId('coverage-score')).toBeVisible()
  const coverage = await new AxeBuilder({ page }).include('main').analyze()
  expect(coverage.violations.map((v) => `${v.id}: ${v.nodes[0]?.target}`)).toEqual([])
})
