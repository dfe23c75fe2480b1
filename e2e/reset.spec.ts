import { expect, test, viewLink } from './fixtures'

test('a reset brings the account back to the secret it started with, as serve and the kit do', async ({
  app,
  wire,
  account,
}) => {
  const { page } = app
  // The page starts its engine as `serve` does: an account with no secret gets one.
  const started = await account.secrets()
  expect(started.map((secret) => secret.state)).toEqual(['active'])
  const key = started[0]!.key

  await account.createSecret()
  await wire.call('keyv.set', { token: key, query: 'key=k&value=v' })
  await account.advance(3600)
  expect(await account.secrets()).toHaveLength(2)

  await viewLink(page, 'Settings').click()
  await page.getByRole('button', { name: 'Reset the account…' }).click()
  await page.getByRole('button', { name: 'Reset everything' }).click()
  await expect(page.getByRole('status')).toHaveText(/^The account was reset: back to the secrets/)

  // The same key, live again; nothing else.
  expect((await account.secrets()).map((secret) => [secret.key, secret.state])).toEqual([
    [key, 'active'],
  ])
  expect(Math.abs((await account.now()) - Date.now() / 1000)).toBeLessThan(60)
  const ping = await wire.call('core.ping', { token: key })
  expect([ping.status, ping.body]).toEqual([200, 'true'])
  const gone = await wire.call('keyv.get', { token: key, query: 'key=k' })
  expect([gone.status, gone.body]).toEqual([200, 'null'])
  await viewLink(page, 'Secrets').click()
  await expect(page.getByTestId('secret-row')).toHaveCount(1)

  // A reload starts the engine again over the same account: the same secret, no second one.
  await app.reload()
  expect((await account.secrets()).map((secret) => secret.key)).toEqual([key])
})
