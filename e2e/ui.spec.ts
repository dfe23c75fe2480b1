import { expect, test } from './fixtures'

test('create a secret, call an endpoint with it, roll it', async ({ app }) => {
  const { page } = app
  const rows = page.getByTestId('secret-row')
  await expect(page.getByRole('heading', { name: 'Account' })).toBeVisible()

  await page.getByRole('button', { name: 'Create secret' }).click()
  await expect(rows).toHaveCount(1)
  const row = rows.first()
  await expect(row.getByTestId('secret-state')).toHaveText('active')
  const id = await row.getAttribute('data-secret-id')
  expect(id).toMatch(/^sec_/)

  const call = page.getByRole('region', { name: 'Call' })
  await call.getByLabel('Endpoint').fill('type.string.reverse')
  await call.getByLabel('Token').selectOption({ label: `Secret ${id} (active)` })
  await call.getByLabel('Content type').selectOption('text/plain')
  await call.getByLabel('Body').fill('hello')
  await call.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByTestId('response-status')).toHaveText('200')
  await expect(page.getByTestId('response-body')).toHaveText('olleh')
  await expect(page.getByTestId('response-header-content-type')).toHaveText(
    'text/plain; charset=utf-8',
  )

  await row.getByRole('button', { name: 'Roll now' }).click()
  await expect(rows).toHaveCount(2)
  const rolled = page.locator(`[data-testid="secret-row"][data-secret-id="${id}"]`)
  await expect(rolled.getByTestId('secret-state')).toHaveText('expired')
  await expect(rolled.getByRole('button', { name: 'Roll now' })).toHaveCount(0)
})

test('roll at a later time, then advance the clock past it', async ({ app }) => {
  const { page } = app
  await page.getByRole('button', { name: 'Create secret' }).click()
  const row = page.getByTestId('secret-row').first()
  await expect(row.getByTestId('secret-state')).toHaveText('active')

  await row.getByLabel('Seconds from now').fill('30')
  await row.getByRole('button', { name: 'Roll at…' }).click()
  await expect(row.getByTestId('secret-state')).toHaveText('rolling')

  await page.getByLabel('Advance by (seconds)').fill('31')
  await page.getByRole('button', { name: 'Advance clock' }).click()
  await expect(row.getByTestId('secret-state')).toHaveText('expired')
  await expect(page.getByTestId('secret-row').nth(1).getByTestId('secret-state')).toHaveText(
    'active',
  )
})
