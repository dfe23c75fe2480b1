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

test('the first view is there as soon as the engine answers: no loading state in between', async ({
  page,
}) => {
  // Notes what the page shows the moment the views first appear.
  await page.addInitScript(() => {
    const seen: { loading?: boolean; control?: boolean } = {}
    Object.assign(window, { firstViews: seen })
    new MutationObserver((_, observer) => {
      if (!document.querySelector('nav[aria-label="Views"]')) return
      observer.disconnect()
      seen.loading = document.querySelector('main .loading') !== null
      const button = [...document.querySelectorAll('main button')].find(
        (b) => b.textContent === 'Create secret',
      ) as HTMLButtonElement | undefined
      seen.control = button !== undefined && !button.disabled
    }).observe(document, { childList: true, subtree: true })
  })
  await page.goto(playgroundUrl(defaultConfig))
  await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 15_000 })
  await page.waitForFunction(() => 'loading' in (window as { firstViews?: object }).firstViews!)
  expect(await page.evaluate(() => (window as { firstViews?: object }).firstViews)).toEqual({
    loading: false,
    control: true,
  })
})
