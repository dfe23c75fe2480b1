import { expect, expectNoHorizontalOverflow, test } from './fixtures'

const VIEWS = [
  'Secrets',
  'Authorizations',
  'Console',
  'Exchange log',
  'Key-value',
  'Procedures',
  'Settings',
]

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 400, height: 800 },
]

/**
 * Every view at both widths, with some state in the account, saved under
 * `test-results/screenshots/` to be looked at; none may be wider than the window.
 */
for (const size of WIDTHS) {
  test(`every view at ${size.width} px fits the window`, async ({ app, wire, account }) => {
    const { page } = app
    await page.setViewportSize(size)
    const secret = await account.createSecret()
    await wire.call('keyv.set', { token: secret.key, query: 'bucket=users&key=alice&value=Alice' })
    await wire.call('auth.create', {
      token: secret.key,
      contentType: 'application/vnd.service+json',
      accept: 'text/plain',
      body: JSON.stringify([['$$', 'abilities', ['type.string', 'keyv.get?bucket=users']]]),
    })
    await wire.call('core.ping', { token: 'not-a-token' })
    for (const view of VIEWS) {
      const link = page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: view })
      await link.click()
      await expect(link).toHaveAttribute('aria-current', 'page')
      await expect(page.locator('main .loading')).toHaveCount(0)
      await page.waitForTimeout(300)
      const slug = view.toLowerCase().replaceAll(' ', '-')
      await page.screenshot({
        path: `test-results/screenshots/${slug}-${size.width}.png`,
        fullPage: true,
      })
      await expectNoHorizontalOverflow(page, `${view} at ${size.width} px`)
    }
  })
}
