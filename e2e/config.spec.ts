import { expect, playgroundUrl, test } from './fixtures'

test.describe('with another base URL and service name', () => {
  test.use({ config: { baseUrl: 'https://other.example.test/v2', serviceName: 'proc' } })

  // One page for the three: what the header shows, what the engine answers, what it does not.
  test('the header shows them, and the engine answers there alone, under its own name', async ({
    app,
    wire,
    account,
    consoleProblems,
  }) => {
    await test.step('the header shows them', async () => {
      await expect(app.page.getByTestId('service-name')).toHaveText('proc')
      await expect(app.page.getByTestId('base-url')).toHaveText('https://other.example.test/v2')
    })

    await test.step('the engine answers there, under its own name', async () => {
      const { key } = await account.createSecret()

      const ping = await wire.fetch('https://other.example.test/v2/core/ping', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
      })
      expect([ping.status, ping.body]).toEqual([200, 'true'])

      const created = await wire.call('auth.create', {
        token: key,
        accept: 'text/plain',
        contentType: 'application/vnd.proc+json',
        body: JSON.stringify([['$$', 'abilities', ['type']]]),
      })
      expect(created.status).toBe(200)
      const denied = await wire.call('core.ping', { token: created.body })
      expect([denied.status, denied.body]).toEqual([
        401,
        "authorization does not have the ability to access proc `core.ping'",
      ])

      const tuples = await wire.call('type.string.upcase', {
        token: key,
        contentType: 'application/vnd.proc+json',
        body: JSON.stringify([['>>', 'proc']]),
      })
      expect(tuples.status).toBe(200)
      expect(tuples.headers['content-type']).toBe('application/vnd.proc+json')
      expect(JSON.parse(tuples.body)).toEqual([['<<', 'PROC']])
    })

    await test.step('the old base URL is not answered', async () => {
      const response = await wire.fetch('https://other.example.test/core/ping', { method: 'POST' })
      expect(response.status).toBe(0)
      // The browser reports the failed request, as it should: the one problem expected here.
      await expect
        .poll(() => consoleProblems)
        .toEqual(['error: Failed to load resource: net::ERR_FAILED'])
      consoleProblems.length = 0
    })
  })
})

// One page for both: neither configuration starts a service.
test('an invalid service name or base URL shows an error instead of the playground', async ({
  page,
}) => {
  await test.step('an invalid service name shows an error instead of the playground', async () => {
    await page.goto(playgroundUrl({ serviceName: 'Not a name' }))
    await expect(page.getByRole('alert')).toHaveText(/^Invalid serviceName "Not a name"/)
    await expect(page.getByRole('heading', { name: 'Account' })).toHaveCount(0)
    await expect(page.locator('html')).not.toHaveAttribute('data-ready')
  })

  await test.step('an invalid base URL shows an error instead of the playground', async () => {
    await page.goto(playgroundUrl({ baseUrl: 'ftp://api.example.test' }))
    await expect(page.getByRole('alert')).toHaveText(
      /^Invalid baseUrl "ftp:\/\/api\.example\.test"/,
    )
  })
})
