import { defaultConfig, expect, playgroundUrl, test } from './fixtures'

test('the views come before the service has loaded: a click waits for it, and nothing leaves for the base URL', async ({
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
  const create = page.getByRole('button', { name: 'Create secret' })
  await expect(create).toBeEnabled()
  await expect(page.locator('html')).not.toHaveAttribute('data-ready')
  await expect(page.getByText("Reading the account's secrets…")).toBeVisible()
  await create.click()
  await expect(create).toBeDisabled()
  // A round trip to the page: a request sent by the click would have left by now.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)))
  expect(baseUrlRequests).toEqual([])
  await expect(page.locator('html')).not.toHaveAttribute('data-ready')

  release()
  await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 15_000 })
  // The click is answered by the engine: the account's first secret and the one it made.
  await expect(page.getByTestId('secret-created')).toBeVisible()
  await expect(page.getByTestId('secret-row')).toHaveCount(2)
  await expect(page.getByTestId('starting')).toHaveCount(0)
})

test('the first view is there the moment the views appear, and the service starts after them', async ({
  page,
}) => {
  // Notes what the page shows the moment the views first appear, and when.
  await page.addInitScript(() => {
    const seen: { loading?: boolean; control?: boolean; at?: number } = {}
    Object.assign(window, { firstViews: seen })
    new MutationObserver((_, observer) => {
      if (!document.querySelector('nav[aria-label="Views"]')) return
      observer.disconnect()
      seen.at = performance.now()
      seen.loading = document.querySelector('main .loading') !== null
      const button = [...document.querySelectorAll('main button')].find(
        (b) => b.textContent === 'Create secret',
      ) as HTMLButtonElement | undefined
      seen.control = button !== undefined && !button.disabled
    }).observe(document, { childList: true, subtree: true })
  })
  /** What the views showed when they appeared, and whether the service's code ran after. */
  const firstViews = async () => {
    await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 15_000 })
    return page.evaluate(() => {
      const { at, ...shown } = (window as { firstViews?: { at?: number } }).firstViews!
      const service = performance.getEntriesByName('playground:service loaded')[0]!.startTime
      return { ...shown, serviceAfterViews: at !== undefined && service > at }
    })
  }
  const expected = { loading: false, control: true, serviceAfterViews: true }
  // The first visit, then a return to it: the account's database, the engine and the worker do
  // not compete with the first view's code and render (decision 116).
  await page.goto(playgroundUrl(defaultConfig))
  expect(await firstViews()).toEqual(expected)
  await page.reload()
  expect(await firstViews()).toEqual(expected)
})
