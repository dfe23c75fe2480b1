import { expect, expectNoHorizontalOverflow, test, viewLink } from './fixtures'

/** An authorization whose key prefix is long, expiring soon: the clock bar's next event. */
const LONG_PREFIX = `customers%2F${'region-europe-west-'.repeat(6)}%2F`

test('at 400 px a long next event never widens the page, and the header and views fold', async ({
  app,
  wire,
  account,
}) => {
  const { page } = app
  const [secret] = await account.secrets()
  const minted = await wire.call('auth.create', {
    token: secret!.key,
    contentType: 'application/vnd.service+json',
    accept: 'text/plain',
    body: JSON.stringify([
      ['$$', 'abilities', [`keyv.get?bucket=customers&prefix=${LONG_PREFIX}`]],
      ['$$', 'ttl', 3600],
    ]),
  })
  expect(minted.status).toBe(200)
  await viewLink(page, 'Authorizations').click()
  await expect(page.getByTestId('authorization-row')).toHaveCount(1)

  await page.setViewportSize({ width: 400, height: 800 })
  await page.evaluate(() => (window.location.hash = '#/secrets'))
  // Folded away below 480 px, but there: it is what would widen the page.
  const next = page.getByRole('button', {
    name: /^Next: authorization \[keyv\.get/,
    includeHidden: true,
  })
  await expect(next).toBeAttached({ timeout: 10_000 })
  await expectNoHorizontalOverflow(page, 'the page with a long next event at 400 px')

  // The header and the views' tabs fold: the view starts in the top quarter of the window.
  const main = await page.getByRole('main').boundingBox()
  expect(main!.y).toBeLessThan(200)
  await expect(page.getByRole('button', { name: 'Advance clock' })).toBeHidden()
  await page.getByRole('button', { name: 'Move the clock' }).click()
  const advance = page.getByRole('button', { name: 'Advance clock' })
  await expect(advance).toBeVisible()
  const box = (await advance.boundingBox())!
  expect(box.x + box.width).toBeLessThanOrEqual(400)
  const shown = (await next.boundingBox())!
  expect(shown.x + shown.width).toBeLessThanOrEqual(400)
  await expectNoHorizontalOverflow(page, 'the clock unfolded at 400 px')

  const fold = page.getByRole('button', { name: 'Secrets (other views)' })
  await expect(viewLink(page, 'Console')).toBeHidden()
  await fold.click()
  await viewLink(page, 'Console').click()
  await expect(page.getByRole('heading', { name: 'Console' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Console (other views)' })).toHaveAttribute(
    'aria-expanded',
    'false',
  )

  // At 1,280 px nothing folds.
  await page.setViewportSize({ width: 1280, height: 800 })
  await expect(page.getByRole('button', { name: 'Move the clock' })).toBeHidden()
  await expect(viewLink(page, 'Secrets')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Advance clock' })).toBeVisible()
})
