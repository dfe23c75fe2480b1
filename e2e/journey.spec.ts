import type { Page } from '@playwright/test'
import { consoleEndpoint, expandAbility, expect, grant, test, viewLink } from './fixtures'

async function pickEndpoint(page: Page, name: string) {
  const endpoint = consoleEndpoint(page)
  await endpoint.fill(name)
  await page.getByRole('option', { name: new RegExp(`^${name.replaceAll('.', '\\.')}\\b`) }).click()
  await expect(endpoint).toHaveValue(name)
}

/**
 * The key journey, as a person makes it: the account's secret, an authorization composed from a package,
 * an endpoint and a key-value ability with a ttl, used in the console in every body format, a
 * refusal read in the exchange log, the clock moved past the ttl, and the secret rolled.
 */
test('secret → authorization → console in every format → refusal in the log → expiry → roll', async ({
  app,
}) => {
  const { page } = app

  // A secret: the account starts with one, as serve's does.
  await viewLink(page, 'Secrets').click()
  await expect(page.getByTestId('secret-row').getByTestId('secret-state')).toHaveText('active')

  // An authorization: the package `type`, the endpoint `core.ping`, `keyv.get` in bucket
  // users under alice/, for ten minutes.
  await viewLink(page, 'Authorizations').click()
  await grant(page, 'type')
  await expandAbility(page, 'core')
  await grant(page, 'core.ping')
  await page.getByLabel('Key-value ability').selectOption('keyv.get')
  await page.getByLabel('Bucket').fill('users')
  await page.getByLabel('Key prefix').fill('alice/')
  await page.getByRole('button', { name: 'Add key-value ability' }).click()
  await page.getByLabel('Time to live (seconds)').fill('600')
  await page.getByRole('button', { name: 'Create authorization' }).click()
  await expect(page.getByTestId('send-answer')).toContainText('200 OK: created')
  const card = page.getByTestId('authorization-row').first()
  await expect(card.getByTestId('authorization-state')).toHaveText('usable')

  // Used in the console, in each body format.
  await card.getByRole('link', { name: 'Use in console' }).click()
  await expect(page.getByRole('heading', { name: 'Console' })).toBeVisible()
  await expect(page.getByRole('combobox', { name: 'Token' })).toHaveValue(/^authorization:/)
  await pickEndpoint(page, 'type.string.reverse')
  await page.getByRole('textbox', { name: 'Input' }).fill('hello')
  const format = page.getByRole('combobox', { name: 'Body format' })
  for (const body of ['text', 'json', 'tuples', 'msgpack']) {
    await format.selectOption(body)
    await page.getByRole('button', { name: 'Send' }).click()
    await expect(page.getByTestId('answer-status'), body).toHaveText('200 OK')
    await expect(page.getByTestId('answer-value'), body).toHaveText(/^"?olleh"?$/)
  }
  await pickEndpoint(page, 'core.ping')
  await format.selectOption('query')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByTestId('answer-value')).toHaveText('true')

  // A refusal: a key outside the authorization's key-value limit.
  await pickEndpoint(page, 'keyv.get')
  await format.selectOption('tuples')
  await page.getByRole('textbox', { name: 'Input' }).fill('bob/1')
  await page.getByRole('textbox', { name: 'bucket' }).fill('users')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByTestId('answer-status')).toHaveText('401 Unauthorized')
  await page.getByRole('link', { name: 'See in the exchange log' }).click()
  const detail = page.getByTestId('exchange-detail')
  await expect(detail.getByRole('heading', { level: 3 })).toHaveText(/keyv\.get$/)
  await expect(detail.getByTestId('trace-call')).toContainText('Outside the key-value limit')
  await expect(detail.getByTestId('trace-call')).toContainText(
    'but not bucket users with key bob/1: the call is outside its key-value limits',
  )

  // The clock moves past the ttl: the authorization expires.
  await page.getByLabel('Advance by (seconds)').fill('601')
  await page.getByRole('button', { name: 'Advance clock' }).click()
  await viewLink(page, 'Authorizations').click()
  await expect(card.getByTestId('authorization-state')).toHaveText(/^expired at \d{4}-/)

  // Another one without a ttl, then the secret rolls: it dies with it.
  for (const ability of ['type', 'core.ping', 'keyv.get?bucket=users&prefix=alice%2F']) {
    await page.getByRole('button', { name: `Remove ${ability}` }).click()
  }
  await grant(page, 'type')
  await page.getByLabel('Time to live (seconds)').fill('')
  await page.getByRole('button', { name: 'Create authorization' }).click()
  await expect(page.getByTestId('authorization-row')).toHaveCount(2)
  const lasting = page.getByTestId('authorization-row').first()
  await expect(lasting.getByTestId('authorization-state')).toHaveText('usable')
  await viewLink(page, 'Secrets').click()
  await page.getByRole('button', { name: 'Roll now' }).click()
  await page.getByRole('button', { name: 'Roll it now' }).click()
  await expect(page.getByTestId('secret-row')).toHaveCount(2)
  await viewLink(page, 'Authorizations').click()
  await expect(lasting.getByTestId('authorization-state')).toHaveText(
    /^dead because its secret rolled at \d{4}-/,
  )
})
