import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { expect, test } from 'service-playground/playwright'

// The app under test: a page at https://app.test that loads the client and calls
// https://proc.run from the browser.
test.use({ serviceOptions: { baseUrl: 'https://proc.run', serviceName: 'proc' } })

test.beforeEach(async ({ page }) => {
  const client = readFileSync('client.js', 'utf8')
  await page.route('https://app.test/**', (route) =>
    route.fulfill(
      route.request().url().endsWith('/client.js')
        ? { contentType: 'text/javascript', body: client }
        : {
            contentType: 'text/html',
            body: '<script type="module">import { connect } from "/client.js"; window.connect = connect</script>',
          },
    ),
  )
  await page.goto('https://app.test/')
  await page.waitForFunction(() => 'connect' in window)
})

type Connect = (token: string) => {
  call(name: string, input: unknown, args?: object): Promise<unknown>
}

/** Calls an endpoint through the client, in the page. */
const callFromPage = (page: Page, token: string, name: string, input: unknown, args = {}) =>
  page.evaluate(
    ({ token, name, input, args }) =>
      (window as unknown as { connect: Connect })
        .connect(token)
        .call(name, input ?? undefined, args)
        .catch((error: Error) => `refused: ${error.message}`),
    { token, name, input: input ?? null, args },
  )

test('the page reaches only what its authorization allows', async ({ page, service }) => {
  const token = await service.authorize(['type.string'])
  expect(await callFromPage(page, token, 'type.string.reverse', 'abc')).toBe('cba')
  expect(await callFromPage(page, token, 'core.ping', undefined)).toBe(
    "refused: authorization does not have the ability to access proc `core.ping'",
  )
  await expect(service).toHaveReceived('type.string.reverse', {
    token: 'authorization',
    status: 200,
  })
  await expect(service).toHaveReceived('core.ping', { status: 401, times: 1 })
})

// Run twice (--repeat-each 2): the second run finds the note gone and no fault left over.
test('every test starts from the same state, faults included', async ({ page, service }) => {
  expect(await callFromPage(page, service.secret, 'keyv.get', 'note')).toBe(null)
  await callFromPage(page, service.secret, 'keyv.set', 'note', { value: 'kept' })
  await service.fault({ status: 503, endpoint: 'keyv.get', once: true })
  expect(await callFromPage(page, service.secret, 'keyv.get', 'note')).toMatch(
    /^refused: service unavailable/,
  )
  expect(await callFromPage(page, service.secret, 'keyv.get', 'note')).toBe('kept')
})
