import { expect, test } from './fixtures'

test('create a secret, see it masked, roll it', async ({ app }) => {
  const { page } = app
  const rows = page.getByTestId('secret-row')
  await expect(page.getByRole('heading', { name: 'Secrets' })).toBeVisible()
  await expect(page.getByText('No secrets yet.')).toBeVisible()

  await page.getByRole('button', { name: 'Create secret' }).click()
  await expect(rows).toHaveCount(1)
  const row = rows.first()
  await expect(row.getByTestId('secret-state')).toHaveText('active')
  const id = await row.getAttribute('data-secret-id')
  expect(id).toMatch(/^sec_/)
  await expect(row.getByTestId('masked-value')).toHaveText(/^.{6}….{4}$/)

  await row.getByRole('button', { name: 'Roll now' }).click()
  await row.getByRole('button', { name: 'Roll it now' }).click()
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
