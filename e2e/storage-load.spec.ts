import { readFile } from 'node:fs/promises'
import { expect, test, type Wire } from './fixtures'

/** Keys in one bucket of the large account: 200 pages of the Key-value view. */
const KEYS = 5000
/** Exchanges in its log. */
const EXCHANGES = 2000

interface AccountFile {
  keyv: Array<{ bucket: string; key: string; value: unknown }>
  playground: { exchanges: Array<{ id: number; startedAt: number; at: number }> }
}

/** A call of each kind the engine stores something for, each answered 200. */
async function callsOfEveryKind(wire: Wire, key: string, token: string, round: number) {
  const composition = JSON.stringify([
    ['$$', 'proc', ['{}', ['>>', ['%%', 'ab']], ['()', 'type.string.reverse']]],
  ])
  const answers = [
    await wire.call('type.string.reverse', { token: key, body: 'abc' }),
    await wire.call('type.string.reverse', { token, body: 'abc' }),
    await wire.call('core.exec', {
      token,
      contentType: 'application/vnd.service+json',
      body: composition,
    }),
    await wire.call('keyv.set', { token, query: `bucket=load&key=new${round}&value=${round}` }),
    await wire.call('keyv.scan', { token, query: 'bucket=load&count=10' }),
  ]
  expect(answers.map((answer) => [answer.status, answer.body])).toEqual([
    [200, 'cba'],
    [200, 'cba'],
    [200, expect.stringContaining('ba')],
    [200, expect.anything()],
    [200, expect.anything()],
  ])
}

// How a call costs after thousands of others is measured by `npm run bench -- storage-load`;
// here, that an account that large works: imported, paged through, logged and called.
test(`an account of ${KEYS} keys and ${EXCHANGES} logged exchanges pages in its views and answers every kind of call`, async ({
  app,
  wire,
  account,
}) => {
  const { page } = app
  const { key } = await account.createSecret()
  const minted = await wire.call('auth.create', {
    token: key,
    query: 'abilities=type,core,keyv%3Fbucket%3Dload',
  })
  expect(minted.status).toBe(200)
  const token = minted.body
  await callsOfEveryKind(wire, key, token, 0)

  // The account as exported, grown to thousands of keys and exchanges.
  await page.getByRole('link', { name: 'Settings' }).click()
  const downloading = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export account' }).click()
  const exported = JSON.parse(
    await readFile(await (await downloading).path(), 'utf8'),
  ) as AccountFile
  const exchanges = exported.playground.exchanges
  expect(exchanges.length).toBeGreaterThanOrEqual(5)
  exported.keyv = Array.from({ length: KEYS }, (_, i) => ({
    bucket: 'load',
    key: `k${String(i).padStart(4, '0')}`,
    value: { i, text: `value ${i}` },
  }))
  exported.playground.exchanges = Array.from({ length: EXCHANGES }, (_, i) => {
    return { ...exchanges[i % exchanges.length]!, id: i + 1 }
  })
  await page.getByLabel('Import account (replaces everything)').setInputFiles({
    name: 'large.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(exported)),
  })
  await page.getByRole('button', { name: 'Replace the account' }).click()
  await expect(page.getByRole('status')).toHaveText(/^The account was replaced by the one in /)

  // The Key-value view counts the bucket and pages through it.
  await page.getByRole('link', { name: 'Key-value' }).click()
  const buckets = page.getByRole('list', { name: 'Buckets' })
  await expect(buckets.getByRole('button', { name: /^load/ })).toHaveText(`load${KEYS} keys`)
  await buckets.getByRole('button', { name: /^load/ }).click()
  const rows = page.getByTestId('key-row')
  await expect(rows).toHaveCount(25)
  await expect(rows.first()).toHaveAttribute('data-key', 'k0000')
  await page.getByRole('button', { name: 'Next page' }).click()
  await expect(rows.first()).toHaveAttribute('data-key', 'k0025')

  // The log holds every exchange imported, and the views' own calls above them.
  await page.getByRole('link', { name: 'Exchange log' }).click()
  const counted = page.getByRole('status').filter({ hasText: /exchanges; the page keeps/ })
  const logged = async () =>
    Number(/^([\d,]+) exchanges/.exec(await counted.innerText())![1]!.replace(/,/g, ''))
  await expect(counted).toBeVisible()
  const before = await logged()
  expect(before).toBeGreaterThanOrEqual(EXCHANGES)
  expect(before).toBeLessThan(EXCHANGES + 50)

  // And every kind of call still answers over it, each logged.
  await callsOfEveryKind(wire, key, token, 1)
  await expect.poll(logged).toBeGreaterThanOrEqual(before + 5)
})
