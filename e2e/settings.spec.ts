import { readFile } from 'node:fs/promises'
import { expect, test } from './fixtures'

test('export the account, reset it, import it back: secrets, keys and tokens return', async ({
  app,
  wire,
  account,
}) => {
  const { page, config } = app
  const [start] = await account.secrets()
  const secret = await account.createSecret()
  await wire.call('keyv.set', { token: secret.key, query: 'key=kept&value=yes' })
  const token = (
    await wire.call('auth.create', {
      token: secret.key,
      accept: 'text/plain',
      query: 'abilities=keyv.get',
    })
  ).body

  await page.getByRole('link', { name: 'Settings' }).click()
  await expect(page.getByText('The exported file holds the account')).toBeVisible()
  const downloading = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export account' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toMatch(/^service-account-\d{4}-\d\d-\d\d\.json$/)
  const file = await download.path()

  await page.getByRole('button', { name: 'Reset the account…' }).click()
  await page.getByRole('button', { name: 'Reset everything' }).click()
  await expect(page.getByRole('status')).toHaveText(/^The account was reset/)
  // Back to the secret the page started with.
  expect((await account.secrets()).map((s) => s.key)).toEqual([start!.key])
  expect((await wire.call('keyv.get', { token, query: 'key=kept' })).status).toBe(401)

  // An import asks first, as a reset does.
  await page.getByLabel('Import account (replaces everything)').setInputFiles(file)
  await page.getByRole('button', { name: 'Replace the account' }).click()
  await expect(page.getByRole('status')).toHaveText(/^The account was replaced by the one in /)
  expect((await account.secrets()).map((s) => s.key)).toEqual([start!.key, secret.key])
  const kept = await wire.call('keyv.get', { token, query: 'key=kept' })
  expect([kept.status, kept.body]).toEqual([200, 'yes'])
  expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
    serviceName: config.serviceName,
  })

  await page.getByRole('link', { name: 'Secrets' }).click()
  await expect(page.getByTestId('secret-row')).toHaveCount(2)
})

test('export, reset and import bring back the authorizations made and the exchange log', async ({
  app,
  wire,
  account,
}) => {
  const { page } = app
  const secret = await account.createSecret()
  await page.getByRole('link', { name: 'Authorizations' }).click()
  await wire.call('auth.create', {
    token: secret.key,
    accept: 'text/plain',
    query: 'abilities=keyv.get',
  })
  await expect(page.getByTestId('authorization-row')).toHaveCount(1)

  await page.getByRole('link', { name: 'Settings' }).click()
  const downloading = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export account' }).click()
  const file = await (await downloading).path()
  await page.getByRole('button', { name: 'Reset the account…' }).click()
  await page.getByRole('button', { name: 'Reset everything' }).click()
  await expect(page.getByRole('status')).toHaveText(/^The account was reset/)
  await page.getByRole('link', { name: 'Authorizations' }).click()
  await expect(page.getByText('No authorizations yet.')).toBeVisible()

  await page.getByRole('link', { name: 'Settings' }).click()
  await page.getByLabel('Import account (replaces everything)').setInputFiles(file)
  await page.getByRole('button', { name: 'Replace the account' }).click()
  await expect(page.getByRole('status')).toHaveText(/^The account was replaced by the one in /)
  await page.getByRole('link', { name: 'Authorizations' }).click()
  await expect(page.getByTestId('authorization-row')).toHaveCount(1)
  await expect(page.getByTestId('authorization-state')).toHaveText('usable')
  await page.getByRole('link', { name: 'Exchange log' }).click()
  await expect(page.getByTestId('exchange-row').filter({ hasText: 'auth.create' })).toHaveCount(1)
})

// One page for both: the refusal leaves the form usable, and the next configuration opens from it.
test('the Settings form refuses a configuration it cannot serve, and opens another with its own account', async ({
  app,
  account,
}) => {
  await test.step('a configuration the playground cannot serve is refused in the form', async () => {
    const { page } = app
    await page.getByRole('link', { name: 'Settings' }).click()
    await page.getByLabel('Base URL').fill('ftp://nowhere')
    await page.getByRole('button', { name: 'Open this service' }).click()
    await expect(page.getByRole('alert')).toHaveText(/^Invalid baseUrl "ftp:\/\/nowhere"/)
  })

  await test.step('another base URL and service name open from the form, with their own account', async () => {
    const { page } = app
    const [first] = await account.secrets()
    await page.getByRole('link', { name: 'Settings' }).click()
    await page.getByLabel('Base URL').fill('https://other.example.test/v1')
    await page.getByLabel('Service name').fill('proc')
    await page.getByRole('button', { name: 'Open this service' }).click()
    await expect(page.getByTestId('service-name')).toHaveText('proc')
    await expect(page.getByTestId('base-url')).toHaveText('https://other.example.test/v1')
    expect(new URL(page.url()).searchParams.get('serviceName')).toBe('proc')
    await expect(page.locator('html[data-ready="true"]')).toBeAttached()
    // An account of its own: its own starting secret, not the first configuration's.
    await page.getByRole('link', { name: 'Secrets' }).click()
    await expect(page.getByTestId('secret-row')).toHaveCount(1)
    await expect(page.locator(`[data-secret-id="${first!.id}"]`)).toHaveCount(0)
  })
})
