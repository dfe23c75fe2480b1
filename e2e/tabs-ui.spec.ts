import { expect, test } from './fixtures'

/** What one tab changes in the account shows in the other tabs of its configuration at once. */
test('a secret created in one tab appears in the other without a reload', async ({
  app,
  context,
}) => {
  const first = app.page
  const second = await context.newPage()
  await second.goto(first.url())
  await expect(second.locator('html[data-ready="true"]')).toBeAttached({ timeout: 15_000 })
  // Both tabs start their engine over the same account: one starting secret, not two.
  await expect(second.getByTestId('secret-row')).toHaveCount(1)
  const navigations: string[] = []
  second.on('framenavigated', (frame) => navigations.push(frame.url()))

  await expect(first.getByTestId('secret-row')).toHaveCount(1)
  await first.getByRole('button', { name: 'Create secret' }).click()
  await expect(first.getByTestId('secret-row')).toHaveCount(2)
  const id = await first.getByTestId('secret-row').nth(1).getAttribute('data-secret-id')

  const secrets = second.getByRole('table', { name: 'Secrets' })
  await expect(secrets.locator(`[data-secret-id="${id}"]`)).toBeVisible()

  // And back: a roll in the second tab shows in the first.
  const made = secrets.locator(`[data-secret-id="${id}"]`)
  await made.getByRole('button', { name: 'Roll now' }).click()
  await made.getByRole('button', { name: 'Roll it now' }).click()
  await expect(first.getByTestId('secret-row')).toHaveCount(3)
  await expect(first.locator(`[data-secret-id="${id}"]`).getByTestId('secret-state')).toHaveText(
    'expired',
  )
  expect(navigations).toEqual([])
})
