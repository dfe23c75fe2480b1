import { expect, expectNoHorizontalOverflow, test } from './fixtures'

test('a program is compiled as it is typed, deployed to the dev stage, called and released', async ({
  app,
  wire,
}) => {
  const { page } = app
  await app.reload()
  // The account's starting secret acts.
  await expect(page.getByTestId('secret-row')).toHaveCount(1)
  await page.getByRole('link', { name: 'Procedures' }).click()
  const main = page.getByRole('main')
  await main.getByRole('button', { name: 'Program (composer language)' }).click()

  const editor = main.getByLabel('Program (composer language)')
  await editor.fill(
    'proc(name: "text.flip") {\n  core.echo .| type.string.reverse .| type.string.capitalize(\n}',
  )
  await expect(main.getByRole('alert')).toContainText(
    "Line 3, column 1: expected an expression, found `}'",
  )
  await expect(editor).toHaveAttribute('aria-invalid', 'true')
  for (const width of [1280, 400]) {
    await page.setViewportSize({ width, height: 800 })
    await expectNoHorizontalOverflow(page)
  }
  await page.setViewportSize({ width: 1280, height: 800 })
  await main.getByRole('button', { name: 'Go to line 3, column 1' }).click()
  await expect(editor).toBeFocused()

  await editor.fill(
    'proc(name: "text.flip") {\n  core.echo .| type.string.reverse .| type.string.capitalize\n}',
  )
  await expect(main.getByTestId('program-tuples')).toContainText('"service.deploy"')
  await main.getByRole('button', { name: 'Deploy' }).click()
  await expect(main.getByTestId('deploy-result')).toContainText('[proc] text.flip: ok')
  await expect(main.getByTestId('deploy-result')).toContainText('/lib/text.flip:dev')

  const card = main.getByRole('article', { name: 'lib.text.flip' })
  await expect(card.getByRole('list', { name: 'Stages of lib.text.flip' })).toHaveText('dev stage')
  await card.getByRole('button', { name: 'Call lib.text.flip' }).click()
  await card.getByLabel('Input (JSON or text; empty for none)').fill('"oof"')
  await card.getByRole('button', { name: 'Send' }).click()
  await expect(card.getByTestId('proc-answer')).toHaveText('"Foo"')

  await card.getByRole('button', { name: 'Release the dev stage of lib.text.flip' }).click()
  await expect(card.getByRole('list', { name: 'Stages of lib.text.flip' })).toHaveText('released')
  const listed = await wire.fetch('_account/procedures')
  expect((JSON.parse(listed.body) as Array<{ name: string }>).map((record) => record.name)).toEqual(
    ['text.flip'],
  )
})

test('the console runs a program as the command-line tool does', async ({ app }) => {
  const { page } = app
  await app.reload()
  // The account's starting secret acts.
  await expect(page.getByTestId('secret-row')).toHaveCount(1)
  await page.getByRole('link', { name: 'Console', exact: true }).click()
  await page.getByText('Run a program (as proc exec does)').click()
  await page
    .getByLabel('Program to run')
    .fill('exec {\n  core.echo(:word) .| type.string.reverse\n}')
  await page.getByLabel('Its arguments (name=value, one a line, as -arg)').fill('word=hello')
  await page.getByRole('button', { name: 'Run as core.exec' }).click()
  await expect(page.getByRole('main').getByText('olleh').first()).toBeVisible()
})
