import { expect, expectNoHorizontalOverflow, test } from './fixtures'

test('go back to before an exchange from its row, see both branches, and return to the old one', async ({
  app,
  wire,
  account,
}) => {
  // About 16 s on an idle machine: two branches, a comparison and two widths, in one story.
  test.setTimeout(60_000)
  const { page } = app
  await page.setViewportSize({ width: 1280, height: 800 })
  const secret = (await account.createSecret()).key
  const set = (value: string) =>
    wire.call('keyv.set', { token: secret, query: `key=note&value=${value}` })
  const read = async () => (await wire.call('keyv.get', { token: secret, query: 'key=note' })).body
  for (const value of ['one', 'two', 'three']) expect((await set(value)).status).toBe(200)

  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('link', { name: 'Exchange log' })
    .click()
  const rows = page.getByTestId('exchange-row')
  await expect(rows).toHaveCount(3)
  // One branch only: the header says nothing of branches yet.
  await expect(page.getByTestId('branch-bar')).toHaveCount(0)

  // Newest first: the middle row wrote "two".
  await expect(rows.nth(1)).toContainText('value=two')
  await rows
    .nth(1)
    .getByRole('button', { name: /^Go back to before exchange/ })
    .click()
  await expect(page.getByTestId('went-back')).toContainText('on branch “before #2”')
  await expect(rows).toHaveCount(1)
  await expect(rows.nth(0)).toContainText('value=one')
  const bar = page.getByTestId('branch-bar')
  await expect(bar.getByTestId('branch-current')).toHaveText('before #2')
  await expect(bar).toContainText('from main, before #2')
  expect(await read()).toBe('one')
  await expect(rows).toHaveCount(2)

  // Something else instead of "two", on the new branch.
  expect((await set('other')).status).toBe(200)
  await expect(rows).toHaveCount(3)
  await expectNoHorizontalOverflow(page)
  await page.screenshot({ path: 'test-results/rewind-branch-1280.png', fullPage: true })

  // The two side by side, from where they part.
  await bar.getByRole('link', { name: 'Compare branches' }).click()
  const columns = page.getByTestId('branch-column')
  await expect(columns).toHaveCount(2)
  await expect(page.getByTestId('compare-summary')).toContainText('They part after exchange #1')
  await expect(columns.nth(0)).toContainText('before #2')
  await expect(columns.nth(1)).toContainText('main')
  await expect(columns.nth(0).locator('[data-first="true"]')).toContainText('keyv.get')
  await expect(columns.nth(1).locator('[data-first="true"]')).toContainText('keyv.set')
  await expectNoHorizontalOverflow(page)
  await page.screenshot({ path: 'test-results/rewind-compare-1280.png', fullPage: true })
  await page.setViewportSize({ width: 400, height: 800 })
  await expectNoHorizontalOverflow(page)
  await page.screenshot({ path: 'test-results/rewind-compare-400.png', fullPage: true })

  // Back to the old timeline, as it was left: its three exchanges, "three" stored.
  await bar.getByRole('button', { name: 'Return to main' }).click()
  await expect(page.getByTestId('branch-current')).toHaveText('main')
  await expect(rows).toHaveCount(3)
  await expect(rows.nth(0)).toContainText('value=three')
  expect(await read()).toBe('three')
  await expectNoHorizontalOverflow(page)
  await page.screenshot({ path: 'test-results/rewind-main-400.png', fullPage: true })

  // And forward again onto the branch, by the list.
  await page.getByLabel('Switch to branch').selectOption({ label: 'before #2' })
  await expect(page.getByTestId('branch-current')).toHaveText('before #2')
  expect(await read()).toBe('other')
})
