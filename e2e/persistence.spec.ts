import { expect, test } from './fixtures'

test('secrets and keyv values survive a reload (IndexedDB)', async ({ app, wire, account }) => {
  const secret = await account.createSecret()
  const set = await wire.call('keyv.set', {
    token: secret.key,
    contentType: 'application/vnd.service+json',
    accept: 'text/plain',
    query: 'bucket=users&key=alice',
    body: JSON.stringify([['$$', 'value', { name: 'Alice', roles: ['admin'] }]]),
  })
  expect([set.status, set.body]).toEqual([200, 'true'])

  await app.reload()

  // Beside the starting secret, the one made: a reload starts the engine again over both.
  expect((await account.secrets()).map(({ id, key }) => ({ id, key }))).toContainEqual({
    id: secret.id,
    key: secret.key,
  })
  expect(await account.secrets()).toHaveLength(2)
  await expect(app.page.getByRole('row', { name: new RegExp(secret.id) })).toBeVisible()
  const get = await wire.call('keyv.get', {
    token: secret.key,
    accept: 'application/json',
    query: 'bucket=users&key=alice',
  })
  expect(get.status).toBe(200)
  expect(JSON.parse(get.body)).toEqual({ name: 'Alice', roles: ['admin'] })
})

test('the exchange log survives a reload', async ({ app, wire, account }) => {
  const { page } = app
  const secret = await account.createSecret()
  await wire.call('type.string.reverse', { token: secret.key, body: 'kept' })
  await page.getByRole('link', { name: 'Exchange log' }).click()
  await expect(page.getByTestId('exchange-row')).toHaveCount(1)
  await app.reload()
  await expect(page.getByTestId('exchange-row')).toHaveCount(1)
  await expect(page.getByTestId('exchange-row').first()).toContainText('type.string.reverse')
  // New requests join it, after what was kept.
  await wire.call('core.ping', { token: secret.key })
  await expect(page.getByTestId('exchange-row')).toHaveCount(2)
  await expect(page.getByTestId('exchange-row').first()).toContainText('core.ping')
})
