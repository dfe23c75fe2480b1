import { readFile } from 'node:fs/promises'
import { expect, expectNoHorizontalOverflow, test } from './fixtures'

test('read why requests sent from the page were refused, filter, export HAR, clear', async ({
  app,
  wire,
  account,
}) => {
  const { page, config } = app
  await page.setViewportSize({ width: 1280, height: 800 })

  // Requests sent from inside the page with plain fetch, as from the devtools console.
  const secret = (await account.createSecret()).key
  const minted = await wire.call('auth.create', {
    token: secret,
    contentType: `application/vnd.${config.serviceName}+json`,
    accept: 'text/plain',
    body: JSON.stringify([['$$', 'abilities', ['keyv.get?bucket=users&prefix=alice/']]]),
  })
  expect(minted.status).toBe(200)
  const token = minted.body
  expect((await wire.call('type.string.reverse', { token: secret, body: 'hello' })).body).toBe(
    'olleh',
  )
  const refused = await wire.call('keyv.get', { token, body: 'bob/1', query: 'bucket=users' })
  expect(refused.status).toBe(401)
  const malformed = await wire.call('core.echo', {
    token: secret,
    contentType: 'application/json',
    body: '{"greeting": "hi",\n "to": }',
  })
  expect(malformed.status).toBe(400)

  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('link', { name: 'Exchange log' })
    .click()
  await expect(page.getByRole('heading', { name: 'Exchange log' })).toBeVisible()
  const rows = page.getByTestId('exchange-row')
  const names = rows.locator('td.log-cell-endpoint a')
  await expect(names).toHaveText(['core.echo', 'keyv.get', 'type.string.reverse', 'auth.create'])
  await expect(rows.nth(1)).toContainText('401 Unauthorized')
  await expect(rows.nth(1)).toContainText('outside_limit')
  await expect(rows.nth(1).getByTestId('masked-value')).not.toHaveText(token)
  await page.screenshot({ path: 'test-results/log-list-1280.png', fullPage: true })

  // The refused one: the reason, as the engine wrote it.
  await rows.nth(1).getByRole('link').click()
  const detail = page.getByTestId('exchange-detail')
  await expect(detail.getByRole('heading', { level: 3 })).toHaveText(/keyv\.get$/)
  await expect(detail.getByRole('heading', { level: 3 })).toBeFocused()
  const call = detail.getByTestId('trace-call')
  await expect(call).toHaveCount(1)
  await expect(call).toContainText('refused')
  await expect(call).toContainText('Outside the key-value limit')
  await expect(call).toContainText(
    'but not bucket users with key bob/1: the call is outside its key-value limits',
  )
  await expect(detail.getByTestId('outside-limit-note')).toBeVisible()
  await expect(detail.getByTestId('credential-explanation')).toContainText(
    'an authorization from secret',
  )
  await expectNoHorizontalOverflow(page)
  await page.screenshot({ path: 'test-results/log-refused-1280.png', fullPage: true })

  // The malformed one: where the body went wrong.
  await rows.nth(0).getByRole('link').click()
  await expect(detail.getByRole('heading', { level: 3 })).toHaveText(/core\.echo$/)
  await expect(detail.getByTestId('outcome-message')).toHaveText(
    'the body is not valid JSON: unexpected "}" at line 2, column 8',
  )
  await expect(detail.getByTestId('error-place')).toHaveText('}')
  await detail.getByTestId('error-place').scrollIntoViewIfNeeded()
  await page.screenshot({ path: 'test-results/log-malformed-1280.png' })

  // Escape goes back to the list, and focus to the row.
  await page.keyboard.press('Escape')
  await expect(detail).toHaveCount(0)
  await expect(rows.nth(0).getByRole('link')).toBeFocused()

  // Filters.
  await page.getByLabel('Status').selectOption('4xx')
  await expect(names).toHaveText(['core.echo', 'keyv.get'])
  await page.getByLabel('Endpoint contains').fill('keyv')
  await expect(names).toHaveText(['keyv.get'])
  await page.getByLabel('Status').selectOption('')
  await page.getByLabel('Endpoint contains').fill('')
  await expect(rows).toHaveCount(4)

  // HAR.
  await expect(page.getByText('It holds the tokens these requests sent, in full')).toBeVisible()
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export HAR' }).click(),
  ])
  expect(download.suggestedFilename()).toMatch(/\.har$/)
  const har = JSON.parse(await readFile((await download.path())!, 'utf8'))
  expect(har.log.version).toBe('1.2')
  expect(har.log.entries).toHaveLength(4)
  const keyv = har.log.entries.find((entry: { request: { url: string } }) =>
    entry.request.url.includes('/keyv/get'),
  )
  expect(keyv.request).toMatchObject({
    method: 'POST',
    queryString: [{ name: 'bucket', value: 'users' }],
    postData: { mimeType: 'text/plain', text: 'bob/1' },
  })
  expect(keyv.request.headers).toContainEqual({ name: 'authorization', value: `Bearer ${token}` })
  expect(keyv.response.status).toBe(401)
  expect(keyv.response.content.text).toBe(
    "authorization does not have the ability to access service `keyv.get'",
  )

  // Narrow: the list as cards, the detail instead of the list.
  await page.setViewportSize({ width: 400, height: 800 })
  await expectNoHorizontalOverflow(page)
  await page.screenshot({ path: 'test-results/log-list-400.png', fullPage: true })
  await rows.nth(1).getByRole('link').click()
  await expect(detail.getByTestId('trace-call')).toContainText('outside_limit')
  await expectNoHorizontalOverflow(page)
  await page.screenshot({ path: 'test-results/log-refused-400.png', fullPage: true })
  await detail.getByRole('link', { name: 'Back to all exchanges' }).click()
  await expect(rows).toHaveCount(4)

  // Clear.
  await page.getByRole('button', { name: 'Clear log' }).click()
  await expect(page.getByText('No requests yet.')).toBeVisible()
  await expect(rows).toHaveCount(0)
  await expectNoHorizontalOverflow(page)
  await page.screenshot({ path: 'test-results/log-empty-400.png', fullPage: true })
})
