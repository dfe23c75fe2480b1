import { expect, expectNoHorizontalOverflow, test } from './fixtures'

test('a procedure is created, called, updated and deleted through the view', async ({
  app,
  wire,
}) => {
  const { page } = app
  await app.reload()
  await expect(page.getByTestId('secret-row')).toHaveCount(1)
  await page.getByRole('link', { name: 'Procedures' }).click()
  const main = page.getByRole('main')
  await expect(main.getByText(/^No stored procedures yet/)).toBeVisible()
  for (const width of [1280, 400]) {
    await page.setViewportSize({ width, height: 800 })
    await page.screenshot({ path: `test-results/procedures-empty-${width}.png` })
    await expectNoHorizontalOverflow(page)
  }
  await page.setViewportSize({ width: 1280, height: 800 })

  await main.getByRole('button', { name: 'Start from this example' }).click()
  const editor = main.getByLabel('Procedure (JSON tuples)')
  await expect(editor).toBeFocused()
  await main.getByLabel('Name (called at lib.<name>)').fill('text.oof')
  await editor.press('Control+End')
  await editor.press('Backspace')
  await expect(
    main.getByText(/^Line 1, column 71: expected "," or "\]", found the end/),
  ).toBeVisible()
  await main.getByRole('button', { name: 'Create procedure' }).click()
  await expect(editor).toBeFocused()
  await editor.press('Control+End')
  await editor.pressSequentially(']')
  await main.getByRole('button', { name: 'Create procedure' }).click()
  await expect(main.getByRole('status')).toHaveText(/^Created lib\.text\.oof\. Next:/)

  const card = main.getByRole('article', { name: 'lib.text.oof' })
  await expect(card.getByTestId('proc-tuples')).toContainText('type.string.capitalize')
  await expect(card.getByRole('link', { name: 'Open in console' })).toHaveAttribute(
    'href',
    /^#\/console\?token=secret%3A[^&]+&endpoint=lib.text.oof$/,
  )
  await card.getByRole('button', { name: 'Call lib.text.oof' }).click()
  await card.getByLabel('Input (JSON or text; empty for none)').fill('"foo"')
  await card.getByRole('button', { name: 'Send' }).click()
  await expect(card.getByTestId('proc-answer')).toHaveText('"Oof"')

  await card.getByRole('button', { name: 'Edit lib.text.oof' }).click()
  await card
    .getByLabel('New tuples of lib.text.oof')
    .fill(
      '["{}", ["()", "type.string.upcase"], ["()", "type.string.append", ["$$", "value", ["@@", "mark", {"default": "!"}]]]]',
    )
  await card.getByRole('button', { name: 'Save procedure' }).click()
  await expect(card.getByTestId('proc-tuples')).toContainText('type.string.upcase')
  await expect(card.getByText(/· updated/)).toBeVisible()

  await card.getByRole('button', { name: 'Call lib.text.oof' }).click()
  await card.getByLabel('Input (JSON or text; empty for none)').fill('"foo"')
  await card.getByLabel('Arguments (a JSON object; empty for none)').fill('{"mark": "?"}')
  await card.getByRole('button', { name: 'Send' }).click()
  await expect(card.getByTestId('proc-answer')).toHaveText('"FOO?"')

  for (const width of [1280, 400]) {
    await page.setViewportSize({ width, height: 800 })
    await card.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `test-results/procedures-${width}.png` })
    await page.screenshot({ path: `test-results/procedures-${width}-full.png`, fullPage: true })
    await expectNoHorizontalOverflow(page)
  }

  // What the view stored, a client reaches over the wire.
  const [secret] = JSON.parse((await wire.fetch('_account/secrets')).body) as [{ key: string }]
  expect((await wire.call('lib.text.oof', { token: secret.key, body: 'hey' })).body).toBe('HEY!')

  await card.getByRole('button', { name: 'Delete lib.text.oof' }).click()
  await expect(card.getByRole('button', { name: 'Delete procedure' })).toBeFocused()
  await card.getByRole('button', { name: 'Delete procedure' }).click()
  await expect(main.getByText(/^No stored procedures yet/)).toBeVisible()
  const gone = await wire.call('lib.text.oof', { token: secret.key, body: 'hey' })
  expect(gone.status).toBe(404)
  // The 404 just asked for on purpose is the only failed load.
})
