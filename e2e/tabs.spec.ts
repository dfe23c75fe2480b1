import { expect, test, type WireResponse } from './fixtures'

/** Two tabs of one configuration share one account through IndexedDB; neither serves stale state. */
test('a second tab sees the data, time and rolls of the first', async ({
  app,
  wire,
  account,
  context,
}) => {
  const secret = await account.createSecret()
  const set = await wire.call('keyv.set', {
    token: secret.key,
    query: 'key=shared&value=one',
  })
  expect(set.status).toBe(200)
  const authorization = await wire.call('auth.create', {
    token: secret.key,
    accept: 'text/plain',
    query: 'abilities=keyv.get&ttl=60',
  })

  const second = await context.newPage()
  await second.goto(app.page.url())
  await expect(second.locator('html[data-ready="true"]')).toBeAttached({ timeout: 15_000 })
  const call = (name: string, token: string, query = '') =>
    second.evaluate(
      async ({ url, token }): Promise<WireResponse> => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { authorization: `bearer ${token}` },
        })
        return { status: response.status, headers: {}, body: await response.text() }
      },
      { url: `${app.config.baseUrl}/${name.replaceAll('.', '/')}?${query}`, token },
    )

  expect((await call('keyv.get', authorization.body, 'key=shared')).body).toBe('one')

  await account.advance(61)
  const expired = await call('keyv.get', authorization.body, 'key=shared')
  expect([expired.status, expired.body]).toEqual([401, 'authorization is expired'])

  await account.roll(secret.id)
  expect((await call('core.ping', secret.key)).status).toBe(401)
})

test('a reset in one tab takes the clock of the others back to real time', async ({
  app,
  account,
  context,
}) => {
  await account.advance(86_400)
  const second = await context.newPage()
  await second.goto(app.page.url())
  await expect(second.locator('html[data-ready="true"]')).toBeAttached({ timeout: 15_000 })
  const clockOf = (page: typeof second) =>
    page.evaluate(async (url) => {
      const response = await fetch(`${url}/_account/clock`)
      return ((await response.json()) as { now: number }).now - Date.now() / 1000
    }, app.config.baseUrl)
  expect(await clockOf(second)).toBeGreaterThan(86_000)

  await app.page.getByRole('link', { name: 'Settings' }).click()
  await app.page.getByRole('button', { name: 'Reset the account…' }).click()
  await app.page.getByRole('button', { name: 'Reset everything' }).click()
  await expect(app.page.getByRole('status')).toHaveText(/^The account was reset/)

  expect(Math.abs(await clockOf(second))).toBeLessThan(60)
  // Its header follows too.
  const shown = async () =>
    Date.parse(((await second.getByTestId('clock-now').textContent()) ?? '').replace(' UTC', 'Z')) /
      1000 -
    Date.now() / 1000
  await expect.poll(shown).toBeLessThan(60)
})

test('the next request of a second tab sees secrets made, a reset and an import in the first', async ({
  app,
  wire,
  account,
  context,
}) => {
  const first = await account.createSecret()
  const second = await context.newPage()
  await second.goto(app.page.url())
  await expect(second.locator('html[data-ready="true"]')).toBeAttached({ timeout: 15_000 })
  const ping = (token: string) =>
    second.evaluate(
      async ({ url, token }) =>
        (await fetch(url, { method: 'POST', headers: { authorization: `bearer ${token}` } }))
          .status,
      { url: `${app.config.baseUrl}/core/ping`, token },
    )
  // The second tab now holds the account's secrets and settings in memory.
  expect(await ping(first.key)).toBe(200)

  const made = await account.createSecret()
  expect(await ping(made.key)).toBe(200)

  const exported = await wire.fetch('_account/export')
  expect(exported.status).toBe(200)
  const json = { method: 'POST', headers: { 'content-type': 'application/json' } }
  expect((await wire.fetch('_account/reset', { ...json, body: '{}' })).status).toBe(200)
  expect(await ping(made.key)).toBe(401)
  expect(await ping(first.key)).toBe(401)

  expect((await wire.fetch('_account/import', { ...json, body: exported.body })).status).toBe(200)
  expect(await ping(made.key)).toBe(200)
  expect(await ping(first.key)).toBe(200)
})
