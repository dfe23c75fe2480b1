import { expect, test } from './fixtures'

/** A `datetime-local` value, in UTC, `seconds` from Unix time 0. */
const dateTime = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 19)

test('the account starts with a secret, masked; another is made, and one rolled', async ({
  app,
}) => {
  const { page } = app
  const rows = page.getByTestId('secret-row')
  await expect(page.getByRole('heading', { name: 'Secrets' })).toBeVisible()
  await expect(rows).toHaveCount(1)
  const row = rows.first()
  await expect(row.getByTestId('secret-state')).toHaveText('active')
  const id = await row.getAttribute('data-secret-id')
  expect(id).toMatch(/^sec_/)
  await expect(row.getByTestId('masked-value')).toHaveText(/^.{6}….{4}$/)

  await page.getByRole('button', { name: 'Create secret' }).click()
  await expect(rows).toHaveCount(2)
  await row.getByRole('button', { name: 'Roll now' }).click()
  await row.getByRole('button', { name: 'Roll it now' }).click()
  await expect(rows).toHaveCount(3)
  const rolled = page.locator(`[data-testid="secret-row"][data-secret-id="${id}"]`)
  await expect(rolled.getByTestId('secret-state')).toHaveText('expired')
  await expect(rolled.getByRole('button', { name: 'Roll now' })).toHaveCount(0)
})

test('roll at a later time, then advance the clock past it', async ({ app, account }) => {
  const { page } = app
  const row = page.getByTestId('secret-row').first()
  await expect(row.getByTestId('secret-state')).toHaveText('active')

  await row.getByLabel('Roll at (UTC, 24 h)').fill(dateTime(Math.floor(await account.now()) + 30))
  await row.getByRole('button', { name: 'Roll at…' }).click()
  await expect(row.getByTestId('secret-state')).toHaveText('rolling')

  await page.getByLabel('Advance by (seconds)').fill('31')
  await page.getByRole('button', { name: 'Advance clock' }).click()
  await expect(row.getByTestId('secret-state')).toHaveText('expired')
  await expect(page.getByTestId('secret-row').nth(1).getByTestId('secret-state')).toHaveText(
    'active',
  )
})
