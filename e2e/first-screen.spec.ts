import { defaultConfig, expect, playgroundUrl, test } from './fixtures'

test('the first screen paints before the service has loaded; the views wait for it', async ({
  page,
}) => {
  // Hold back the page's service (the engine, its store and MSW), a chunk of its own.
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(/\/assets\/playground-[^/]+\.js$/, async (route) => {
    await held
    await route.continue()
  })
  const baseUrlRequests: string[] = []
  page.on('request', (request) => {
    if (request.url().startsWith(defaultConfig.baseUrl)) baseUrlRequests.push(request.url())
  })

  await page.goto(playgroundUrl(defaultConfig))
  await expect(page.getByTestId('starting')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Secrets' })).toHaveCount(0)
  await expect(page.locator('html')).not.toHaveAttribute('data-ready')
  expect(baseUrlRequests).toEqual([])

  release()
  await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 15_000 })
  await expect(page.getByRole('heading', { name: 'Secrets' })).toBeVisible()
  await expect(page.getByTestId('starting')).toHaveCount(0)
})
