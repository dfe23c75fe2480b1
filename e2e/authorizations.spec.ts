import type { Locator, Page } from '@playwright/test'
import {
  ability,
  consoleEndpoint,
  expandAbility,
  expect,
  expectNoHorizontalOverflow,
  grant,
  test,
  viewLink,
} from './fixtures'

const cards = (page: Page) => page.getByTestId('authorization-row')

/** Picks an endpoint in the console's field, as a person types and chooses it. */
async function pickEndpoint(page: Page, name: string) {
  const endpoint = consoleEndpoint(page)
  await endpoint.fill(name)
  await endpoint.press('Enter')
  await expect(endpoint).toHaveValue(name)
}

/** The token of a listed authorization, read as a person would: reveal it. */
async function revealToken(card: Locator): Promise<string> {
  await card.getByRole('button', { name: /^Reveal the authorization/ }).click()
  return (await card.getByTestId('masked-value').first().textContent()) ?? ''
}

test('compose authorizations, use one, watch them expire and die with their secret', async ({
  app,
}) => {
  const { page } = app
  await page.setViewportSize({ width: 1280, height: 800 })

  // The account's starting secret signs.
  await expect(page.getByTestId('secret-row')).toHaveCount(1)
  await viewLink(page, 'Authorizations').click()
  await expect(page.getByRole('heading', { name: 'Compose auth.create' })).toBeVisible()
  await expect(page.getByText('No authorizations yet.')).toBeVisible()

  // A package, an endpoint and a limited key-value ability, with a ttl.
  await grant(page, 'type')
  await expandAbility(page, 'core')
  await grant(page, 'core.ping')
  await page.getByLabel('Key-value ability').selectOption('keyv.get')
  await page.getByLabel('Bucket').fill('users')
  await page.getByLabel('Key prefix').fill('alice/')
  await page.getByRole('button', { name: 'Add key-value ability' }).click()
  await page.getByLabel('Time to live (seconds)').fill('60')
  const abilities = ['type', 'core.ping', 'keyv.get?bucket=users&prefix=alice%2F']
  await expect(page.getByTestId('snippet-client')).toHaveText(
    `await client.auth.create({ abilities: ${JSON.stringify(abilities)}, ttl: 60 })`,
  )
  await expect(page.getByTestId('snippet-http')).toContainText(
    JSON.stringify([
      ['$$', 'abilities', abilities],
      ['$$', 'ttl', 60],
    ]),
  )
  await page.screenshot({ path: 'test-results/authorizations-compose-1280.png', fullPage: true })

  await page.getByRole('button', { name: 'Create authorization' }).click()
  await expect(page.getByTestId('send-answer')).toContainText('200 OK: created')
  await expect(cards(page)).toHaveCount(1)
  const withTtl = cards(page).first()
  await expect(withTtl.getByTestId('authorization-state')).toHaveText('usable')
  await expect(withTtl).toContainText('keys starting with “alice/”')

  // An older one without ttl: it lives until its secret rolls.
  for (const ability of abilities) {
    await page.getByRole('button', { name: `Remove ${ability}` }).click()
  }
  await grant(page, 'type')
  await page.getByLabel('Time to live (seconds)').fill('')
  await page.getByRole('button', { name: 'Create authorization' }).click()
  await expect(cards(page)).toHaveCount(2)
  const older = cards(page).first()
  await expect(older.getByTestId('authorization-state')).toHaveText('usable')
  await expect(cards(page).nth(1)).toContainText('core.ping')

  // Use in console: the console is opened with the authorization chosen.
  const ttlCard = cards(page).nth(1)
  const token = await revealToken(ttlCard)
  expect(token).toMatch(/^[\w-]+\.[\w-]+$/)
  await page.setViewportSize({ width: 400, height: 800 })
  await page.screenshot({ path: 'test-results/authorizations-list-400.png', fullPage: true })
  await expectNoHorizontalOverflow(page)
  await page.setViewportSize({ width: 1280, height: 800 })
  await ttlCard.getByRole('link', { name: 'Use in console' }).click()
  await expect(page).toHaveURL(/#\/console\?/)
  const params = new URLSearchParams(new URL(page.url()).hash.split('?')[1])
  expect(params.get('token')).toBe(`authorization:${token}`)
  // The page remembers it: the menu offers it as one of its own, not as a link's.
  const menu = page.getByLabel('Token', { exact: true })
  await expect(menu).toHaveValue(`authorization:${token}`)
  await expect(menu.locator('option:checked')).toHaveText(/^Authorization \[type, core\.ping, /)

  // Refused keyv.set: the fix starts from this token, its other abilities and its expiry kept,
  // only keyv.set added, and says so.
  await pickEndpoint(page, 'keyv.set')
  await page.getByRole('textbox', { name: 'bucket' }).fill('users')
  await page.getByRole('textbox', { name: 'key' }).fill('alice/1')
  await page.getByRole('textbox', { name: 'value' }).fill('Alice')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByTestId('answer-status')).toHaveText('401 Unauthorized')
  const fix = page.getByTestId('refusal-reason').getByTestId('compose-fix')
  await expect(fix).toHaveText('Compose an authorization with keyv.set')
  await fix.click()
  const origin = page.getByTestId('composition-origin')
  // Its lifetime kept: its expiry while ahead, or its ttl from now once the ticking clock has
  // passed it (a slow machine takes a minute to get here).
  await expect(origin).toContainText(
    /Kept as it was: type, core\.ping, keyv\.get\?bucket=users&prefix=alice%2F, its (expiry \(|lifetime \(a ttl of 1 min)/,
  )
  await expect(origin).toContainText('and its secret. Changed: keyv.set added.')
  await expect(
    page.getByRole('list', { name: 'Abilities to grant' }).getByRole('listitem'),
  ).toHaveText([/^type/, /^core\.ping/, /^keyv\.get\?bucket=users&prefix=alice%2F/, /^keyv\.set/])
  await expect(cards(page)).toHaveCount(2)

  // The header's clock bar moves past the ttl: that one expires, the older one lives on.
  await page.getByLabel('Advance by (seconds)').fill('61')
  await page.getByRole('button', { name: 'Advance clock' }).click()
  await expect(cards(page).nth(1).getByTestId('authorization-state')).toHaveText(
    /^expired at \d{4}-\d{2}-\d{2} /,
  )
  await expect(cards(page).first().getByTestId('authorization-state')).toHaveText('usable')

  // Rolling the secret kills the older authorization with it.
  await viewLink(page, 'Secrets').click()
  await page.getByRole('button', { name: 'Roll now' }).click()
  await page.getByRole('button', { name: 'Roll it now' }).click()
  await expect(page.getByTestId('secret-row')).toHaveCount(2)
  await viewLink(page, 'Authorizations').click()
  await expect(cards(page).first().getByTestId('authorization-state')).toHaveText(
    /^dead because its secret rolled at \d{4}-/,
  )
  // The one with a ttl expired before the roll: expired it stays, on its card and in the
  // console's menu, and its refusal names the expiry, not the roll.
  const expiredFirst = cards(page).nth(1)
  await expect(expiredFirst.getByTestId('authorization-state')).toHaveText(/^expired at /)
  await expiredFirst.getByRole('link', { name: 'Use in console' }).click()
  await expect(menu.locator('option:checked')).toHaveText(/^Authorization \[type, .*\(expired\)$/)
  await pickEndpoint(page, 'core.ping')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByTestId('answer-status')).toHaveText('401 Unauthorized')
  const reason = page.getByTestId('refusal-reason')
  await expect(reason).toContainText('Credential refused: expired')
  // Minted again it needs a live secret too: its own has rolled since.
  await expect(reason.getByTestId('counterfactual')).toContainText(
    'or mint it again from a live secret, with a later expiry or a longer ttl',
  )
  await reason.getByTestId('compose-fix').click()
  await expect(page.getByTestId('composition-origin')).toContainText(
    'its lifetime (a ttl of 1 min, the same length from now), no insecure abilities; signed by a live secret',
  )
  await page.getByRole('button', { name: 'Create authorization' }).click()
  await expect(page.getByTestId('send-answer')).toContainText('200 OK: created')
  await expect(cards(page).first().getByTestId('authorization-state')).toHaveText('usable')
  await expect(ability(page, 'type')).toHaveAttribute('aria-checked', 'true')

  await page.screenshot({ path: 'test-results/authorizations-1280.png', fullPage: true })
  await expectNoHorizontalOverflow(page)
  await page.setViewportSize({ width: 400, height: 800 })
  await page.screenshot({ path: 'test-results/authorizations-400.png', fullPage: true })
  await expectNoHorizontalOverflow(page)
})

test('an insecure ability is flagged, and the engine refuses it without the switch', async ({
  app,
}) => {
  const { page } = app
  await page.goto(`${page.url().split('#')[0]}#/authorizations`)
  await grant(page, 'auth')
  await expect(page.getByRole('list', { name: 'Before sending' })).toContainText(
    'needs insecure: true; without it the engine answers 400',
  )
  await page.getByRole('button', { name: 'Create authorization' }).click()
  await expect(page.getByTestId('send-answer').getByRole('alert')).toHaveText(
    '400 Bad Request: insecure abilities auth are only granted with insecure: true',
  )
  await page.setViewportSize({ width: 400, height: 800 })
  await page.screenshot({ path: 'test-results/authorizations-refused-400.png' })
  await expectNoHorizontalOverflow(page)
})

test('a long ability list in the signer menu never widens the page', async ({
  app,
  wire,
  account,
}) => {
  const { page } = app
  const [secret] = await account.secrets()
  const abilities = [
    'auth.create',
    ...Array.from(
      { length: 12 },
      (_, i) => `keyv.get?bucket=customers-${i}&prefix=region%2Feurope%2F`,
    ),
  ]
  await wire.call('auth.create', {
    token: secret!.key,
    contentType: 'application/vnd.service+json',
    accept: 'text/plain',
    body: JSON.stringify([
      ['$$', 'abilities', abilities],
      ['$$', 'insecure', true],
    ]),
  })
  await viewLink(page, 'Authorizations').click()
  await expect(page.getByTestId('authorization-row')).toHaveCount(1)
  const signer = page.getByLabel('Signed with (the bearer token)')
  await expect(signer.locator('option')).toHaveCount(2)
  for (const width of [1280, 400]) {
    await page.setViewportSize({ width, height: 800 })
    await expectNoHorizontalOverflow(page, `Authorizations at ${width} px`)
  }
})
