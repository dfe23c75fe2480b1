import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startFront } from '../src/testing/front-proxy'
import { expect, playgroundUrl, test as base, type PlaygroundConfig } from './fixtures'

/** A real server at the base URL's origin, counting every request that reaches it. */
interface RealOrigin {
  url: string
  hits: string[]
}

const test = base.extend<{ origin: RealOrigin }, { server: { url: string; hits: string[] } }>({
  server: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from its pattern
    async ({}, use) => {
      const hits: string[] = []
      const server: Server = createServer((request, response) => {
        hits.push(`${request.method} ${request.url}`)
        response.writeHead(200, { 'access-control-allow-origin': '*' })
        response.end('the real origin')
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      const { port } = server.address() as AddressInfo
      await use({ url: `http://127.0.0.1:${port}`, hits })
      await new Promise((resolve) => server.close(resolve))
    },
    { scope: 'worker' },
  ],
  origin: async ({ server }, use) => {
    server.hits.length = 0
    await use(server)
  },
  config: async ({ server }, use) => {
    const config: PlaygroundConfig = { baseUrl: `${server.url}/api`, serviceName: 'service' }
    await use(config)
  },
})

/** Calls `core.ping` from the page as any code in it would; `status body`, or the error. */
declare global {
  interface Window {
    early?: Promise<string>
  }
}

test('a call made as the page starts waits for the engine instead of leaving', async ({
  app,
  origin,
}) => {
  await app.page.addInitScript((baseUrl) => {
    if (window !== window.top) return // not in the playground's own frames (src/ui/code-cache.ts)
    window.early = fetch(`${baseUrl}/core/ping`, { method: 'POST' }).then(
      async (response) => `${response.status} ${await response.text()}`,
      (error: unknown) => String(error),
    )
  }, app.config.baseUrl)
  await app.reload()
  expect(await app.page.evaluate(() => window.early)).toBe('401 authorization is missing')
  expect(origin.hits).toEqual([])
})

test('a first visit that meets the worker while it activates opens once, controlled', async ({
  page,
  context,
  config,
  origin,
}) => {
  // The worker index.html registers is slow to activate (as on a cold machine): the page's
  // scripts find it active but not yet controlling the page.
  await context.route('**/app-worker.js', async (route) => {
    const response = await route.fetch()
    const slow = `addEventListener('activate', (event) =>
      event.waitUntil(new Promise((resolve) => setTimeout(resolve, 1500))))\n`
    await route.fulfill({ response, body: slow + (await response.text()) })
  })
  let loads = 0
  page.on('load', () => (loads += 1))
  await page.goto(playgroundUrl(config))
  await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 15_000 })
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
  await expect(page.getByRole('navigation', { name: 'Views' })).toBeVisible()
  expect([loads, origin.hits]).toEqual([1, []])
})

test('a hard reload, which leaves the page to the network, opens once, controlled', async ({
  app,
  origin,
}) => {
  let loads = 0
  app.page.on('load', () => (loads += 1))
  // As Shift+Reload: the page comes from the network and no worker controls it.
  const cdp = await app.page.context().newCDPSession(app.page)
  await cdp.send('Page.reload', { ignoreCache: true })
  await expect(app.page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 15_000 })
  expect(await app.page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
  await expect(app.page.getByRole('navigation', { name: 'Views' })).toBeVisible()
  expect([loads, origin.hits]).toEqual([1, []])
})

test('after the browser stops the worker, calls are held until the page re-activates it', async ({
  app,
  wire,
  account,
  origin,
  context,
}) => {
  // The account's starting secret.
  const [secret] = await account.secrets()
  const cdp = await context.newCDPSession(app.page)
  await cdp.send('ServiceWorker.enable')
  await cdp.send('ServiceWorker.stopAllWorkers')

  // The page's own control-plane request, then a call from code in the page.
  await app.page.getByRole('button', { name: 'Create secret' }).click()
  await expect(app.page.getByTestId('secret-row')).toHaveCount(2)
  const ping = await wire.call('core.ping', { token: secret!.key })
  expect([ping.status, ping.body]).toEqual([200, 'true'])
  await expect(app.page.getByTestId('engine-status')).toContainText(
    'The browser stopped the service worker',
  )
  expect(origin.hits).toEqual([])
})

test('with no engine to answer, the worker answers 503 itself', async ({ app, origin }) => {
  test.slow()
  await app.page.addInitScript((baseUrl) => {
    if (window !== window.top) return // not in the playground's own frames (src/ui/code-cache.ts)
    // The page never starts its engine: it cannot find its worker's registration.
    Object.defineProperty(navigator.serviceWorker, 'getRegistrations', {
      value: () => Promise.reject(new Error('not in this test')),
    })
    window.early = fetch(`${baseUrl}/core/ping`, { method: 'POST' }).then(
      async (response) => `${response.status} ${await response.text()}`,
      (error: unknown) => String(error),
    )
  }, app.config.baseUrl)
  await app.page.reload()
  await expect(app.page.getByTestId('startup-error')).toBeVisible()
  expect(await app.page.evaluate(() => window.early)).toMatch(/^503 engine not running/)
  expect(origin.hits).toEqual([])
})

test('the default base URL waits for the engine too', async ({ app }) => {
  await app.page.addInitScript(() => {
    if (window !== window.top) return // not in the playground's own frames (src/ui/code-cache.ts)
    window.early = fetch('https://api.service.test/core/ping', { method: 'POST' }).then(
      async (response) => `${response.status} ${await response.text()}`,
      (error: unknown) => String(error),
    )
  })
  await app.page.goto('/')
  await expect(app.page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 15_000 })
  expect(await app.page.evaluate(() => window.early)).toBe('401 authorization is missing')
})

test("a new build's worker reloads the page once; the same build at other bytes does not", async ({
  page,
  config,
  origin,
  baseURL,
}) => {
  // The playground at an origin of its own, whose worker script the test changes between the
  // browser's update checks (which Playwright's routes do not see).
  let change = (script: string) => script
  const front = await startFront({
    upstream: baseURL!,
    rewrite: (path, body) => (path === '/app-worker.js' ? change(body) : undefined),
  })
  try {
    await page.goto(`${front.url}${playgroundUrl(config)}`)
    await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 15_000 })
    /** Asks the browser for an update; resolves once the new worker controls the page. */
    const update = () =>
      page.evaluate(async () => {
        const container = navigator.serviceWorker
        const taken = new Promise((resolve) =>
          container.addEventListener('controllerchange', resolve, { once: true }),
        )
        await (await container.getRegistration())!.update()
        await taken
      })
    const buildOfController = () =>
      page.evaluate(
        () =>
          new Promise<unknown>((resolve) => {
            const { port1, port2 } = new MessageChannel()
            port1.onmessage = (event) => resolve((event.data as { version: unknown }).version)
            navigator.serviceWorker.controller!.postMessage({ type: 'SHELL_VERSION' }, [port2])
          }),
      )
    const ping = () =>
      page.evaluate(async (baseUrl) => {
        const response = await fetch(`${baseUrl}/core/ping`, { method: 'POST' })
        return `${response.status} ${await response.text()}`
      }, config.baseUrl)
    const built = await buildOfController()
    expect(built).toMatch(/^[0-9a-f]{16}$/)
    let loads = 0
    page.on('load', () => (loads += 1))

    await test.step('the same build at other bytes takes the page, which stays and answers', async () => {
      change = (script) => `// the same build, other bytes\n${script}`
      await page.evaluate(() => ((window as { stayed?: boolean }).stayed = true))
      await update()
      // The page asked both workers for their build before the new one answers here.
      expect(await buildOfController()).toBe(built)
      expect(await ping()).toBe('401 authorization is missing')
      expect(await page.evaluate(() => (window as { stayed?: boolean }).stayed)).toBe(true)
      expect(loads).toBe(0)
    })

    await test.step("another build's worker takes the page, which reloads once on it", async () => {
      change = (script) =>
        script.replace(`"version":"${String(built)}"`, '"version":"another-build"')
      const reloaded = page.waitForEvent('load')
      await update()
      await reloaded
      await expect(page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 15_000 })
      expect(await buildOfController()).toBe('another-build')
      expect(await ping()).toBe('401 authorization is missing')
      expect(loads).toBe(1)
    })
    expect(origin.hits).toEqual([])
  } finally {
    await page.close()
    await front.close()
  }
})
