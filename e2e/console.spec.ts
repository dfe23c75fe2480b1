import type { Page } from '@playwright/test'
import { consoleEndpoint, expect, expectNoHorizontalOverflow, test, viewLink } from './fixtures'

/** Creates a secret in the Secrets view, as a person does, and answers its id. */
async function createSecret(page: Page): Promise<string> {
  await viewLink(page, 'Secrets').click()
  await page.getByRole('button', { name: 'Create secret' }).click()
  const row = page.getByTestId('secret-row').first()
  await expect(row.getByTestId('secret-state')).toHaveText('active')
  return (await row.getAttribute('data-secret-id'))!
}

async function pickEndpoint(page: Page, typed: string, name: string, screenshot?: string) {
  const endpoint = consoleEndpoint(page)
  await endpoint.fill(typed)
  if (screenshot) await page.screenshot({ path: `test-results/${screenshot}` })
  await page.getByRole('option', { name: new RegExp(`^${name.replaceAll('.', '\\.')}\\b`) }).click()
  await expect(endpoint).toHaveValue(name)
}

test('call an endpoint in vnd+json and MessagePack, page through keyv.scan, reload a shared link', async ({
  app,
  wire,
  account,
}) => {
  const { page } = app
  const secretId = await createSecret(page)

  await viewLink(page, 'Console').click()
  await expect(page.getByRole('heading', { name: 'Console' })).toBeVisible()
  await pickEndpoint(page, 'str', 'type.string.truncate', 'console-picker-1280.png')
  await expect(page.getByTestId('endpoint-summary')).toHaveText(
    'Keeps the first `length` characters.',
  )
  await page.getByRole('combobox', { name: 'Token' }).selectOption(`secret:${secretId}`)
  await page.getByRole('textbox', { name: 'Input' }).fill('hello world')
  await page.getByRole('textbox', { name: 'length' }).fill('5')

  // vnd+json: the tuples are built from the form and the answer is unwrapped.
  await page.getByRole('combobox', { name: 'Body format' }).selectOption('tuples')
  await expect(page.getByTestId('plan-body')).toHaveText('[[">>","hello world"],["$$","length",5]]')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByTestId('answer-status')).toHaveText('200 OK')
  await expect(page.getByTestId('answer-value')).toHaveText('hello')
  await page.getByRole('radio', { name: 'raw' }).check()
  await expect(page.getByTestId('answer-body')).toHaveText('[["<<","hello"]]')

  // MessagePack: the same form, the bytes in hex, sent with Ctrl+Enter.
  await page.getByRole('combobox', { name: 'Body format' }).selectOption('msgpack')
  await expect(page.getByTestId('plan-body')).toContainText('92 92 a2 3e 3e ab 68 65 6c 6c 6f')
  await page.getByRole('textbox', { name: 'length' }).fill('4')
  await page.getByRole('textbox', { name: 'length' }).press('Control+Enter')
  await expect(page.getByTestId('answer-value')).toHaveText('hell')
  await expect(
    page.getByTestId('answer-headers').locator('[data-header="content-type"]'),
  ).toHaveText('application/vnd.service+msgpack')
  await page.getByRole('radio', { name: 'hex' }).check()
  await expect(page.getByTestId('answer-body')).toHaveText('91 92 a2 3c 3c a4 68 65 6c 6c')
  await expect(page.getByRole('link', { name: 'See in the exchange log' })).toHaveAttribute(
    'href',
    /^#\/log\?id=\d+$/,
  )

  // keyv.scan over five keys in a bucket with a long name: a long cursor, two keys a page.
  const [secret] = (await account.secrets()).filter((s) => s.id === secretId)
  const bucket = `bucket-${'x'.repeat(180)}`
  for (const key of ['a', 'b', 'c', 'd', 'e']) {
    const set = await wire.call('keyv.set', {
      token: secret!.key,
      query: `bucket=${bucket}&key=${key}&value=1`,
    })
    expect(set.status).toBe(200)
  }
  await pickEndpoint(page, 'keyv.sc', 'keyv.scan')
  await page.getByRole('combobox', { name: 'Body format' }).selectOption('json')
  await page.getByRole('textbox', { name: 'bucket' }).fill(bucket)
  await page.getByRole('textbox', { name: 'count' }).fill('2')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByTestId('answer-value')).toHaveText(JSON.stringify(['a', 'b'], null, 2))
  const cursor = page.getByTestId('answer-headers').locator('[data-header="x-cursor"]')
  expect((await cursor.textContent())!.length).toBeGreaterThan(200)
  await page.getByRole('button', { name: 'Next page' }).click()
  await expect(page.getByTestId('answer-value')).toHaveText(JSON.stringify(['c', 'd'], null, 2))

  // A long x-cursor wraps inside its box: the page never grows wider than the window.
  await page.setViewportSize({ width: 1280, height: 800 })
  await expectNoHorizontalOverflow(page)
  await page.screenshot({ path: 'test-results/console-1280.png', fullPage: true })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: 'test-results/console-1280-dark.png' })
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 400, height: 800 })
  await expectNoHorizontalOverflow(page)
  await page.screenshot({ path: 'test-results/console-400.png', fullPage: true })
  await page.setViewportSize({ width: 1280, height: 800 })

  await page.getByRole('button', { name: 'Next page' }).click()
  await expect(page.getByTestId('answer-value')).toHaveText(JSON.stringify(['e'], null, 2))
  await expect(page.getByRole('button', { name: 'Next page' })).toHaveCount(0)

  // The exchange is in the log; coming back through the nav finds the form as it was.
  await page.getByRole('link', { name: 'See in the exchange log' }).click()
  await expect(page).toHaveURL(/#\/log\?id=\d+$/)
  await viewLink(page, 'Console').click()
  await expect(page.getByRole('textbox', { name: 'count' })).toHaveValue('2')

  // The form is in the link: reloading restores it.
  expect(new URL(page.url()).hash).toContain('endpoint=keyv.scan')
  await app.reload()
  await expect(consoleEndpoint(page)).toHaveValue('keyv.scan')
  await expect(page.getByRole('combobox', { name: 'Token' })).toHaveValue(`secret:${secretId}`)
  await expect(page.getByRole('textbox', { name: 'bucket' })).toHaveValue(bucket)
  await expect(page.getByRole('textbox', { name: 'count' })).toHaveValue('2')
  await expect(page.getByRole('textbox', { name: 'cursor' })).not.toHaveValue('')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByTestId('answer-value')).toHaveText(JSON.stringify(['e'], null, 2))
})

test('a token pasted by hand takes its place without moving the form', async ({ app }) => {
  const { page } = app
  await viewLink(page, 'Console').click()
  await pickEndpoint(page, 'ping', 'core.ping')
  const token = page.getByRole('combobox', { name: 'Token' })
  const format = page.getByRole('combobox', { name: 'Body format' })
  for (const width of [400, 1280]) {
    await page.setViewportSize({ width, height: 800 })
    await token.selectOption({ label: 'No token' })
    await expect(page.getByRole('textbox', { name: 'Pasted token' })).toBeHidden()
    const before = await format.boundingBox()
    await token.selectOption({ label: 'Paste a token…' })
    await expect(page.getByRole('textbox', { name: 'Pasted token' })).toBeVisible()
    expect(await format.boundingBox(), `at ${width} px`).toEqual(before)
  }
  await page.getByRole('textbox', { name: 'Pasted token' }).fill('not-a-token')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByTestId('answer-status')).toHaveText('401 Unauthorized')
  await expect(page.getByTestId('answer-message')).toHaveText('authorization is invalid')
  await page.setViewportSize({ width: 400, height: 800 })
  await page.screenshot({ path: 'test-results/console-401-400.png', fullPage: true })
  expect(new URL(page.url()).hash).not.toContain('not-a-token')
})
