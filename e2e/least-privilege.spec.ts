import { expect, expectNoHorizontalOverflow, openView, test, type Wire } from './fixtures'

/** An authorization minted through the wire with `key`, as any code in the page would. */
async function mint(wire: Wire, key: string, abilities: string[]): Promise<string> {
  const made = await wire.call('auth.create', {
    token: key,
    contentType: 'application/vnd.service+json',
    accept: 'text/plain',
    body: `[["$$","abilities",${JSON.stringify(abilities)}]]`,
  })
  expect(made.status, made.body).toBe(200)
  return made.body
}

test('a token tightened to what the log shows it using, put into the composer, minted and used', async ({
  app,
  wire,
  account,
}) => {
  test.slow()
  const { page } = app
  await page.setViewportSize({ width: 1280, height: 800 })
  const [secret] = await account.secrets()
  const wide = await mint(wire, secret!.key, ['type.string', 'keyv'])
  // What the client does with it: two string endpoints, one bucket under one prefix, and a
  // refusal it meets (core.ping is not among its abilities).
  const use = [
    { name: 'type.string.reverse', body: 'hello' },
    { name: 'type.string.length', body: 'hello' },
    { name: 'keyv.set', query: 'bucket=users&key=alice/1&value=1' },
    { name: 'keyv.get', query: 'bucket=users&key=alice/2' },
  ]
  for (const call of use) {
    expect((await wire.call(call.name, { token: wide, ...call })).status).not.toBe(401)
  }
  expect((await wire.call('core.ping', { token: wide })).status).toBe(401)

  await openView(page, 'Authorizations')
  await expect(page.getByTestId('authorization-row')).toHaveCount(1)
  const pick = page.getByRole('combobox', { name: 'Pick a token this page knows' })
  const option = pick.locator('option', { hasText: /^Authorization \[type\.string/ })
  await pick.selectOption((await option.getAttribute('value'))!)
  await expect(page.getByTestId('reach-count')).toBeVisible()

  const tighten = page.getByTestId('tighten')
  // The page's log reads the engine's once a second: every call above is in it before asking.
  await openView(page, 'Exchange log')
  await expect(page.getByTestId('exchange-row')).toHaveCount(6)
  await openView(page, 'Authorizations')
  await tighten.getByRole('button', { name: 'Tighten to what was used' }).click()
  await expect(page.getByTestId('tighten-proof')).toHaveAttribute('data-status', 'proven')
  const suggested = await page
    .getByTestId('tighten-suggested')
    .locator('li')
    .evaluateAll((items) => items.map((li) => li.textContent ?? ''))
  expect(suggested).toEqual([
    // Each key-value endpoint limited to the bucket and the longest key prefix it used.
    'keyv.get?bucket=users&prefix=alice/2',
    'keyv.set?bucket=users&prefix=alice/1',
    'type.string.length',
    'type.string.reverse',
  ])
  // What it would stop reaching, each proven by a call the minted token makes and it does not.
  const lost = tighten.getByTestId('tighten-lost-item')
  await expect(lost.filter({ hasText: 'type.string.append' })).toHaveCount(1)
  await expect(tighten.getByTestId('tighten-flags')).toContainText('keyv')
  await tighten.scrollIntoViewIfNeeded()
  await tighten.screenshot({ path: 'test-results/screenshots/tighten-1280.png' })
  await page.setViewportSize({ width: 400, height: 800 })
  await tighten.scrollIntoViewIfNeeded()
  await tighten.screenshot({ path: 'test-results/screenshots/tighten-400.png' })
  await expectNoHorizontalOverflow(page)
  await page.setViewportSize({ width: 1280, height: 800 })

  // One click puts the arguments into the composer; minted, the token answers the client's
  // calls as the wide one did, and refuses what was taken away.
  await page.getByTestId('tighten-compose').click()
  const chosen = page.getByRole('list', { name: 'Abilities to grant' })
  await expect(chosen.locator('li')).toHaveCount(4)
  // The ttl suggested is the time from its minting to its last use in the log (a second or
  // two here): a token minted now for calls made now is given the time they take.
  const ttl = page.getByLabel('Time to live (seconds)')
  await expect(ttl).toHaveValue(/^\d+$/)
  expect(Number(await ttl.inputValue())).toBeLessThan(60)
  await ttl.fill('600')
  await page.getByRole('button', { name: 'Create authorization' }).click()
  await expect(page.getByTestId('authorization-row')).toHaveCount(2)
  const card = page.getByTestId('authorization-row').filter({ hasText: 'type.string.reverse' })
  await card.getByRole('button', { name: /^Reveal the authorization/ }).click()
  const narrow = (await card.getByTestId('masked-value').first().textContent()) ?? ''
  expect(narrow).toMatch(/^[\w-]+\.[\w-]+$/)
  for (const call of use) {
    const [before, after] = [
      await wire.call(call.name, { token: wide, ...call }),
      await wire.call(call.name, { token: narrow, ...call }),
    ]
    expect([call.name, after.status, after.body]).toEqual([call.name, before.status, before.body])
  }
  expect((await wire.call('type.string.append', { token: narrow, body: 'a' })).status).toBe(401)
  expect((await wire.call('keyv.get', { token: narrow, query: 'bucket=other&key=x' })).status).toBe(
    401,
  )

  // The Coverage view lists the wide token first among those wider than their use.
  await openView(page, 'Coverage')
  const tokens = page.getByTestId('coverage-token')
  await expect(tokens.first()).toContainText('type.string')
  await expect(tokens.first()).toContainText('beyond its use')
  await page.getByTestId('coverage-tokens').screenshot({
    path: 'test-results/screenshots/coverage-tokens-1280.png',
  })
})
