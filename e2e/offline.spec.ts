import { expect, test, watchConsole } from './fixtures'

test('after the first visit the playground opens and answers with the network cut', async ({
  app,
  wire,
  account,
  context,
}) => {
  const { page } = app
  // The account's starting secret.
  const [secret] = await account.secrets()
  // The worker caches the app shell once the engine answers, and says so.
  await expect(page.locator('html[data-offline="ready"]')).toBeAttached()
  // Then the first visit runs its scripts once from that cache, in a frame that starts nothing
  // and is taken away, for their code cache (decision 100).
  await expect(page.locator('html[data-code-cache="ready"]')).toBeAttached()
  expect(page.frames()).toHaveLength(1)

  await context.setOffline(true)
  const reloaded = await page.reload()
  expect(reloaded?.fromServiceWorker()).toBe(true)
  await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 15_000 })
  expect(await page.evaluate(() => navigator.onLine)).toBe(false)

  await expect(page.getByRole('heading', { name: 'Secrets' })).toBeVisible()
  await expect(page.locator(`[data-secret-id="${secret!.id}"]`)).toBeVisible()

  const ping = await wire.call('core.ping', { token: secret!.key })
  expect([ping.status, ping.body]).toEqual([200, 'true'])
  expect((await account.secrets()).map(({ id }) => id)).toEqual([secret!.id])

  // The UI's own queries and mutations run though the browser says it is offline.
  await page.getByRole('button', { name: 'Create secret' }).click()
  await expect(page.getByTestId('secret-row')).toHaveCount(2)
})

test('the next visit opens offline after the last tab was closed', async ({
  app,
  account,
  context,
}) => {
  const secret = await account.createSecret()
  await expect(app.page.locator('html[data-offline="ready"]')).toBeAttached()
  const url = app.page.url()
  await app.page.close({ runBeforeUnload: true })
  // MSW's own worker unregisters itself a few milliseconds after its last tab goes; give it
  // time to, had it been allowed.
  await new Promise((resolve) => setTimeout(resolve, 1_000))

  await context.setOffline(true)
  const page = await context.newPage()
  const errors = watchConsole(page)
  await page.goto(url)
  await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 15_000 })
  await expect(page.locator(`[data-secret-id="${secret.id}"]`)).toBeVisible()
  expect(errors).toEqual([])
})
