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

  expect((await account.secrets()).map(({ id, key }) => ({ id, key }))).toEqual([
    { id: secret.id, key: secret.key },
  ])
  await expect(app.page.getByRole('row', { name: new RegExp(secret.id) })).toBeVisible()
  const get = await wire.call('keyv.get', {
    token: secret.key,
    accept: 'application/json',
    query: 'bucket=users&key=alice',
  })
  expect(get.status).toBe(200)
  expect(JSON.parse(get.body)).toEqual({ name: 'Alice', roles: ['admin'] })
})
