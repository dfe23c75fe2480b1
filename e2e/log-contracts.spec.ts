import { readFileSync } from 'node:fs'
import { readCaseFile } from '../src/conformance/cases'
import { verifyCommand } from '../src/cli/conformance/commands'
import { formatContract } from '../src/conformance/contract/format'
import { loadContracts } from '../src/conformance/contract/load'
import { notesFile, openContract, replay, wrongNotes } from './contract-file'
import { expect, expectNoHorizontalOverflow, test, viewLink } from './fixtures'

/**
 * Contracts in the exchange log, through the page as a person uses it: exchanges chosen and
 * saved as a contract that the command line verifies; a contract the kit recorded opened and
 * replayed on a throwaway account of its own, every step passing and the page's account kept; a wrong one showing the step
 * that differs; files that are no contract, refused with the reason.
 */

/** The contract code's chunk, which only saving or opening a contract fetches. */
const CONTRACT_CODE = /\/assets\/contract-code-[^/]+\.js$/

test('exchanges chosen in the log are saved as a contract the command line verifies, with no token in it', async ({
  app,
  wire,
  account,
}, testInfo) => {
  const { page, config } = app
  const fetched: string[] = []
  page.on('request', (request) => {
    if (CONTRACT_CODE.test(request.url())) fetched.push(request.url())
  })

  // Requests from code in the page: an authorization held to alice's keys, refused outside
  // them, refused once expired; the secret itself; and one left out of the contract.
  const secret = (await account.createSecret()).key
  const vnd = `application/vnd.${config.serviceName}+json`
  const minted = await wire.call('auth.create', {
    token: secret,
    contentType: vnd,
    accept: 'text/plain',
    body: JSON.stringify([
      ['$$', 'abilities', ['keyv?bucket=notes&prefix=alice/']],
      ['$$', 'ttl', 60],
    ]),
  })
  expect(minted.status).toBe(200)
  const token = minted.body
  const keyv = (name: string, query: string) => wire.call(name, { token, query })
  expect((await keyv('keyv.set', 'bucket=notes&key=alice/1&value=milk')).status).toBe(200)
  expect((await keyv('keyv.get', 'bucket=notes&key=bob/1')).status).toBe(401)
  await account.advance(120)
  expect((await keyv('keyv.get', 'bucket=notes&key=alice/1')).status).toBe(401)
  expect((await wire.call('type.string.reverse', { token: secret, body: 'abc' })).body).toBe('cba')
  expect((await wire.call('core.ping')).status).toBe(401)

  await viewLink(page, 'Exchange log').click()
  const rows = page.getByTestId('exchange-row')
  await expect(rows).toHaveCount(6)
  // Every one listed, then the newest (the ping without a token) left out again.
  await page.getByRole('checkbox', { name: 'Choose every exchange listed' }).check()
  await rows.first().getByRole('checkbox').uncheck()
  await expect(page.getByRole('status').first()).toContainText('6 exchanges, 5 chosen')
  await expect(page).toHaveURL(/#\/log\?chosen=1-5$/)
  expect(fetched, 'the log view does not fetch the contract code').toEqual([])

  await page.getByRole('button', { name: 'Save as contract…' }).click()
  await page.getByLabel('Case name').fill('keeps notes for alice')
  const downloaded = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Download contract' }).click()
  const download = await downloaded
  expect(download.suggestedFilename()).toBe('keeps-notes-for-alice.json')
  await expect(page.getByText(/^Saved/)).toHaveText(
    'Saved keeps-notes-for-alice.json: the case “keeps notes for alice”, 6 steps.',
  )
  expect(fetched).toHaveLength(1)

  const file = testInfo.outputPath('keeps-notes-for-alice.json')
  await download.saveAs(file)
  const text = readFileSync(file, 'utf8')
  for (const key of [token, ...(await account.secrets()).map((s) => s.key)]) {
    expect(text, 'no token in the contract').not.toContain(key)
  }
  expect(formatContract(readCaseFile(file, text)), 'laid out as the command line writes').toBe(text)

  // The command line, on an engine of its own (named `proc`, not `service`).
  const out: string[] = []
  const code = await verifyCommand(
    [file, '--target', 'handle', '--junit', testInfo.outputPath('junit.xml')],
    { out: (line) => out.push(line), err: (line) => out.push(line) },
  )
  const report = out.join('\n')
  expect(code, report).toBe(0)
  expect(report).toContain(`passed ${file} › keeps notes for alice`)
  expect(report.match(/^\s+\d+ ok /gm)).toHaveLength(6)
  expect(report).toContain('advance the clock 120 s')
})

test('a contract the kit recorded opens in the log and every step passes on a throwaway account', async ({
  app,
  wire,
  account,
}) => {
  const { page } = app
  // What the person came to check: it survives the replay.
  const [secret] = await account.secrets()
  await wire.call('keyv.set', { token: secret!.key, query: 'key=mine&value=kept' })
  await viewLink(page, 'Exchange log').click()
  await expect(page.getByTestId('exchange-row')).toHaveCount(1)
  const panel = await openContract(page, notesFile)
  await expect(panel.getByRole('heading', { name: 'Contract notes.json' })).toBeFocused()
  const cases = loadContracts([notesFile])
  await expect(panel.getByTestId('contract-case')).toHaveCount(cases.length)
  await expect(panel.getByTestId('contract-step')).toHaveCount(0)

  await expect(await replay(page)).toHaveText(
    `Replayed ${cases.length} cases on a throwaway account: ${cases.length} passed, 0 differ, 0 skipped.`,
  )
  const steps = cases.reduce((sum, c) => sum + c.steps.length, 0)
  await expect(panel.locator('[data-testid="contract-step"][data-status="passed"]')).toHaveCount(
    steps,
  )
  // The page's account and its log are as they were.
  await expect(page.getByTestId('exchange-row')).toHaveCount(1)
  const kept = await wire.call('keyv.get', { token: secret!.key, query: 'key=mine' })
  expect([kept.status, kept.body]).toEqual([200, 'kept'])
  expect((await account.secrets()).map((s) => s.key)).toEqual([secret!.key])
})

test('a wrong contract shows the step that differs, with the difference, the request and the answer', async ({
  app,
}) => {
  const { page } = app
  await viewLink(page, 'Exchange log').click()
  await openContract(page, wrongNotes())
  await expect(await replay(page)).toHaveText(
    'Replayed 3 cases on a throwaway account: 2 passed, 1 differs, 0 skipped.',
  )
  const failed = page.locator('[data-testid="contract-case"][data-status="failed"]')
  await expect(failed).toHaveCount(1)
  await expect(failed).toContainText('adds notes, lists them a page at a time, deletes one')
  await expect(failed.getByTestId('contract-step')).toHaveCount(19)
  const step = failed.locator('[data-testid="contract-step"][data-status="failed"]')
  await expect(step).toHaveCount(1)
  await expect(step).toContainText('5.keyv.get')
  await expect(step.getByTestId('step-differences')).toHaveText(
    'expected result at /title "Oat milk", got "Milk"',
  )
  const exchange = step.getByLabel('Step 5: the request and the answer')
  await expect(exchange).toContainText(
    /POST https:\/\/api\.example\.test\/_replay\/run_[0-9a-f-]+\/keyv\/get/,
  )
  await expect(exchange).toContainText('authorization: Bearer $auth1')
  await expect(exchange).toContainText('answered 200')
  await expect(exchange).toContainText('"title":"Milk"')
  await expectNoHorizontalOverflow(page)
})

test('a file that is no contract is refused with the reason, and the log stays usable', async ({
  app,
  wire,
}) => {
  const { page } = app
  await wire.call('type.string.reverse', { body: 'abc' })
  await viewLink(page, 'Exchange log').click()
  const files = [
    ['broken.json', '{"description": "x", "cases": [', 'broken.json: not valid JSON ('],
    [
      'page.har',
      '{"log": {"entries": []}}',
      "page.har: /log must have required property 'version': not a HAR as browsers export it",
    ],
    [
      'steps.json',
      JSON.stringify({ description: 'x', cases: [{ name: 'n', steps: {} }] }),
      'steps.json: /cases/0/steps (case "n", in its steps) must be array',
    ],
    ['huge.json', ' '.repeat(6 * 1024 * 1024), 'huge.json: 6.0 MB is more than the 5.0 MB'],
  ] as const
  for (const [name, text, message] of files) {
    const panel = await openContract(page, {
      name,
      mimeType: 'application/json',
      buffer: Buffer.from(text),
    })
    await expect(panel.getByTestId('contract-error')).toContainText(message)
    await expect(page.getByTestId('exchange-row')).toHaveCount(1)
  }
  await page.getByRole('button', { name: 'Close the contract' }).click()
  await expect(page.getByTestId('contract')).toHaveCount(0)
  await page.getByTestId('exchange-row').getByRole('link').click()
  await expect(page.getByTestId('exchange-detail')).toBeVisible()
})

test('"Copy as test" gives the exchanges as a Vitest, Jest or Playwright file with the kit, tokens made in it', async ({
  app,
  wire,
  account,
}) => {
  const { page, config } = app
  const secret = (await account.createSecret()).key
  const minted = await wire.call('auth.create', {
    token: secret,
    contentType: `application/vnd.${config.serviceName}+json`,
    accept: 'text/plain',
    body: JSON.stringify([['$$', 'abilities', ['type.string']]]),
  })
  expect(minted.status).toBe(200)
  const token = minted.body
  expect((await wire.call('type.string.reverse', { token, body: 'abc' })).body).toBe('cba')
  await viewLink(page, 'Exchange log').click()
  await expect(page.getByTestId('exchange-row')).toHaveCount(2)
  await page.getByRole('button', { name: 'Copy as test' }).click()
  const copied = page.getByTestId('copied-test')
  await expect(copied).toContainText("import { useService } from 'service-playground/vitest'")
  const code = (await copied.textContent())!
  expect(code).toContain(`useService({ baseUrl: "${config.baseUrl}"`)
  expect(code).toContain('const auth1 = await response1.text()')
  expect(code).toContain('authorization: `Bearer ${auth1}`')
  expect(code).toContain('expect(await response2.text()).toBe("cba")')
  expect(code).not.toContain(token)
  expect(code).not.toContain(secret)
  // The same exchanges for Jest, then for Playwright over a running serve.
  const region = page.getByRole('region', { name: 'Test copied' })
  await region.getByLabel('Runner').selectOption('Jest')
  await expect(copied).toContainText("const { useService } = require('service-playground/jest')")
  await region.getByLabel('Runner').selectOption('Playwright')
  await region.getByLabel('Service').selectOption('Over serve')
  await expect(copied).toContainText('serveTarget: { url, controlToken }')
  const served = (await copied.textContent())!
  expect(served).toContain("import { expect, test } from 'service-playground/playwright'")
  expect(served).toContain('process.env.SERVICE_PLAYGROUND_URL')
  expect(served).not.toContain(config.baseUrl)
  expect(served).not.toContain(token)
  await expect(region.getByRole('status')).toContainText('a Playwright test replaying 2 exchanges')
})
