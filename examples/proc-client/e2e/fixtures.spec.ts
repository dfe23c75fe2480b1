import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { expect, test } from 'service-playground/playwright'
import { connect } from '../client.js'

// Data written once per worker in beforeAll, read by every test; what a test writes is undone
// after it (run twice with --repeat-each 2).
test.use({ workerServiceOptions: { baseUrl: 'https://proc.run', serviceName: 'proc' } })

test.beforeAll(async ({ workerService }) => {
  const proc = connect(workerService.secret, { baseUrl: workerService.baseUrl })
  for (const [key, value] of [
    ['alice', 'Alice'],
    ['bob', 'Bob'],
  ]) {
    await proc.call('keyv.set', undefined, { bucket: 'users', key, value })
  }
})

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

type Connect = (
  token: string,
  options: { baseUrl: string },
) => {
  call(name: string, input: unknown, args?: object): Promise<unknown>
}

const fromPage = (page: Page, token: string, baseUrl: string, name: string, args: object) =>
  page.evaluate(
    ({ token, baseUrl, name, args }) =>
      (window as unknown as { connect: Connect })
        .connect(token, { baseUrl })
        .call(name, undefined, args),
    { token, baseUrl, name, args },
  )

test('the page sees the worker fixtures, and deletes one', async ({ page, service }) => {
  const { secret, baseUrl } = service
  expect(await fromPage(page, secret, baseUrl, 'keyv.get', { bucket: 'users', key: 'alice' })).toBe(
    'Alice',
  )
  await fromPage(page, secret, baseUrl, 'keyv.delete', { bucket: 'users', key: 'alice' })
  expect(await fromPage(page, secret, baseUrl, 'keyv.get', { bucket: 'users', key: 'alice' })).toBe(
    null,
  )
  await expect(service).toHaveReceived('keyv.get', { times: 2 })
})

test('finds the fixture the other test deleted', async ({ page, service }) => {
  const { secret, baseUrl } = service
  expect(await fromPage(page, secret, baseUrl, 'keyv.get', { bucket: 'users', key: 'alice' })).toBe(
    'Alice',
  )
  expect(await fromPage(page, secret, baseUrl, 'keyv.get', { bucket: 'users', key: 'bob' })).toBe(
    'Bob',
  )
  // Only this test's requests: not beforeAll's, not the other test's.
  await expect(service).toHaveReceived('keyv.set', { times: 0 })
})
