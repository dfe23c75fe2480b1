import type { Page } from '@playwright/test'
import { expect, test, viewLink } from './fixtures'

/** What must stay on screen whatever the account holds: the header, the clock and the nav. */
async function expectPlaygroundShown(page: Page) {
  await expect(page.getByRole('heading', { name: 'Service playground' })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Virtual clock' })).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Views' })).toBeVisible()
}

test('a roll at a time no date can hold leaves every view usable, and Settings reachable', async ({
  app,
}) => {
  const { page } = app
  const row = page.getByTestId('secret-row').first()
  // The last moment a date-time field takes.
  await row.getByLabel('Roll at (UTC, 24 h)').fill('275760-09-13T00:00:00')
  await row.getByRole('button', { name: 'Roll at…' }).click()
  // The engine may refuse it (a time past what it can represent) or keep it: either way the
  // page stays whole.
  await expect(page.getByRole('alert').or(page.getByTestId('secret-row').nth(1))).toBeVisible()
  await expectPlaygroundShown(page)
  for (const view of ['Authorizations', 'Console', 'Exchange log', 'Procedures', 'Secrets']) {
    await viewLink(page, view).click()
    await expect(viewLink(page, view)).toHaveAttribute('aria-current', 'page')
    await expect(page.locator('main h2').first()).toBeVisible()
  }
  await app.reload()
  await expectPlaygroundShown(page)
  await viewLink(page, 'Settings').click()
  await page.getByRole('button', { name: 'Reset the account…' }).click()
  await page.getByRole('button', { name: 'Reset everything' }).click()
  await expect(page.getByRole('status')).toHaveText(/^The account was reset/)
})

test('an authorization with a ttl no date can hold, made by code in the page', async ({
  app,
  wire,
  account,
}) => {
  const { page } = app
  const secret = await account.createSecret()
  await wire.call('auth.create', {
    token: secret.key,
    contentType: 'application/vnd.service+json',
    accept: 'text/plain',
    body: JSON.stringify([
      ['$$', 'abilities', ['core']],
      ['$$', 'ttl', 1e13],
    ]),
  })
  await viewLink(page, 'Authorizations').click()
  await expect(page.getByRole('heading', { name: 'Authorizations created' })).toBeVisible()
  await app.reload()
  await expectPlaygroundShown(page)
  await expect(page.getByRole('heading', { name: 'Authorizations created' })).toBeVisible()
  await page.getByLabel('Time to live (seconds)').fill('10000000000000')
  await expectPlaygroundShown(page)
  await expect(page.getByRole('heading', { name: 'Compose auth.create' })).toBeVisible()
})
