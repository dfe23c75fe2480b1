import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from '@playwright/test'
import { main } from '../src/cli/conformance/commands'
import { linkFailure, type FailedResult } from '../src/kit/test-link'
import { summarizeFailedTest } from '../src/kit/test-summary'
import { createHarness } from '../src/testing/engine-harness'
import { openContract, replay, wrongNotes } from './contract-file'
import { expect, expectNoHorizontalOverflow, openView, test, type Wire } from './fixtures'
import { summaryPage } from './summary-page'
import { terminalPage } from './terminal-page'

/**
 * Every view at 1,280 and 400 px, over an account that strains the layout: an authorization
 * with a long list of limited abilities (it signs, so it is in the composer's menu), a secret
 * rolling decades from now, keys with hidden characters, a refusal in the log. Each view must
 * fit its window. The pictures go to `test-results/screenshots/`, or to the folder named by
 * `E2E_SCREENSHOTS` (`E2E_SCREENSHOTS=docs/screenshots` renews the README's).
 */
const folder = process.env.E2E_SCREENSHOTS ?? 'test-results/screenshots'

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 400, height: 800 },
]

const LONG_ABILITIES = [
  'auth.create',
  'type.string',
  'core.ping',
  ...['eu', 'us', 'apac', 'latam'].flatMap((region) => [
    `keyv.get?bucket=customers&prefix=${region}%2F`,
    `keyv.set?bucket=orders-${region}&prefix=2026%2F`,
  ]),
  'keyv.scan?bucket=customers&prefix=eu%2F',
  'lib.report',
]

const tuples = (...args: Array<[string, unknown]>) =>
  JSON.stringify(args.map(([name, value]) => ['$$', name, value]))

async function fillAccount(wire: Wire, key: string): Promise<string> {
  const vnd = 'application/vnd.service+json'
  const set = (bucket: string, name: string, value: unknown) =>
    wire.call('keyv.set', {
      token: key,
      contentType: vnd,
      body: tuples(['bucket', bucket], ['key', name], ['value', ['%%', value]]),
    })
  await set('customers', 'eu/ada', { name: 'Ada', plan: 'pro' })
  await set('customers', 'eu/grace', { name: 'Grace', plan: 'free' })
  await set('customers', 'us/alan', { name: 'Alan', plan: 'pro' })
  // Two keys that look the same: one holds a zero-width space.
  await set('customers', 'eu/admin', 'the real one')
  await set('customers', 'eu/admin\u200B', 'the look-alike')
  await wire.call('service.create', {
    token: key,
    contentType: vnd,
    body: tuples(
      ['name', 'report'],
      ['proc', ['{}', ['()', 'type.string.reverse'], ['()', 'type.string.capitalize']]],
    ),
  })
  const limited = await wire.call('auth.create', {
    token: key,
    contentType: vnd,
    accept: 'text/plain',
    body: tuples(['abilities', LONG_ABILITIES], ['insecure', true], ['ttl', 86_400]),
  })
  expect(limited.status).toBe(200)
  // A refusal the log explains: a key outside the authorization's limits.
  await wire.call('keyv.get', { token: limited.body, query: 'bucket=customers&key=jp%2Fkenji' })
  await wire.call('type.string.reverse', { token: key, body: 'hello' })
  return limited.body
}

/**
 * Watches pinned on the limited authorization, labelled as the Watches view labels it: one that
 * holds, one that does not (its key outside the limit: red, with the fix), one it cannot make.
 */
async function pinWatches(wire: Wire, limited: string) {
  // Cut at a whole ability within the engine's 200 characters, as the view's form cuts it.
  const shown = LONG_ABILITIES.slice(0, 4)
  const label = `the authorization [${shown.join(', ')}, and ${LONG_ABILITIES.length - shown.length} more]`
  const get = (key: string) => ({ endpoint: 'keyv.get', args: { bucket: 'customers', key } })
  for (const [call, expect] of [
    [get('eu/ada'), 'allowed'],
    [get('jp/kenji'), 'allowed'],
    [{ endpoint: 'keyv.delete', args: { bucket: 'customers', key: 'eu/ada' } }, 'refused'],
  ] as const) {
    const pinned = await wire.fetch('_account/watches', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: limited, call, expect, label }),
    })
    if (pinned.status !== 200) throw new Error(`a watch was not pinned: ${pinned.body}`)
  }
}

/** The state each view is shown in, as its URL says it. */
function routes(secretId: string, limited: string): Record<string, string> {
  return {
    Secrets: '#/secrets',
    Authorizations: `#/authorizations?${new URLSearchParams([
      ['ability', 'keyv.get?bucket=customers&prefix=eu%2F'],
      ['ability', 'type.string'],
      ['ttl', '3600'],
    ])}`,
    Console: `#/console?${new URLSearchParams({
      endpoint: 'keyv.get',
      token: `authorization:${limited}`,
      'text.bucket': 'customers',
      'text.key': 'jp/kenji',
    })}`,
    // The last three exchanges chosen, to save as a contract.
    'Exchange log': '#/log?chosen=7-9',
    Coverage: '#/coverage',
    Watches: '#/watches',
    'Key-value': `#/keyv?${new URLSearchParams({ token: `secret:${secretId}`, bucket: 'customers', prefix: 'eu/' })}`,
    Procedures: '#/procedures',
    Settings: '#/settings',
  }
}

/** What each view must show before its picture is taken. */
async function settle(page: Page, view: string) {
  const main = page.getByRole('main')
  await expect(page.locator('main .loading')).toHaveCount(0)
  switch (view) {
    case 'Secrets': {
      // The starting secret, two made, and the one that replaces the rolling secret.
      await expect(page.getByTestId('secret-row')).toHaveCount(4)
      // Each roll-at offer shows its whole moment (UTC, 24 h, seconds), none of it cut.
      const offers = page.getByLabel('Roll at (UTC, 24 h)')
      await expect(offers.first()).toHaveValue(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
      const cut = await offers.evaluateAll(
        (fields) => fields.filter((field) => field.scrollWidth > field.clientWidth).length,
      )
      expect(cut, 'roll-at fields whose moment is cut').toBe(0)
      break
    }
    case 'Authorizations':
      await expect(page.getByTestId('authorization-row')).toHaveCount(1)
      await expect(page.getByTestId('authorization-state')).toHaveText('usable')
      break
    case 'Console':
      await main.getByRole('button', { name: 'Send' }).click()
      await expect(page.getByTestId('refusal-reason')).toContainText('outside_limit')
      break
    case 'Exchange log': {
      const refused = page.getByTestId('exchange-row').filter({ hasText: '401' }).first()
      await refused.getByRole('link').click()
      await expect(page.getByTestId('outside-limit-note')).toBeVisible()
      break
    }
    case 'Coverage':
      await expect(page.getByTestId('coverage-read')).toHaveText(/^From 10 calls in 10 exchanges/)
      await expect(page.getByTestId('coverage-tokens')).not.toContainText('Asking the engine')
      break
    case 'Watches':
      // Pinned before the reload: kept with the account, and asked again now.
      await expect(page.getByTestId('watch')).toHaveCount(3)
      await expect(page.getByTestId('watch-count')).toHaveText(/^1 of 3 does not hold, at /)
      break
    case 'Key-value':
      await expect(page.getByTestId('key-row')).toHaveCount(4)
      break
    case 'Procedures':
      await expect(page.getByTestId('procedure')).toHaveCount(1)
      break
    case 'Settings':
      await expect(main.getByRole('heading', { name: 'Account' })).toBeVisible()
      break
  }
}

for (const size of WIDTHS) {
  test(`every view at ${size.width} px fits the window`, async ({ app, wire, account }) => {
    test.slow()
    const { page } = app
    await page.setViewportSize(size)
    const secret = await account.createSecret()
    const rolling = await account.createSecret()
    // Decades away: the clock bar's next event and the secret's row say it in years.
    await account.roll(rolling.id, (await account.now()) + 90 * 365 * 86_400)
    const limited = await fillAccount(wire, secret.key)
    await pinWatches(wire, limited)
    // The page remembers the authorization once its reader of the log has seen it; then the
    // views, reloaded, read everything code in the page changed.
    await openView(page, 'Authorizations')
    await expect(page.getByTestId('authorization-row')).toHaveCount(1)
    // The tab's log keeps what its reader has read (once a second): all nine, before the reload.
    await openView(page, 'Exchange log')
    await expect(page.getByTestId('exchange-row')).toHaveCount(9)
    await app.reload()
    const views = routes(secret.id, limited)
    for (const [view, hash] of Object.entries(views)) {
      await page.evaluate((hash) => (window.location.hash = hash), hash)
      // The nav's current link (folded away below 480 px, and there all the same).
      await expect(page.locator('nav[aria-label="Views"] a[aria-current="page"]')).toHaveText(view)
      if (view === 'Exchange log') {
        // The list itself, before an exchange is opened (below 38rem the detail takes its place).
        await expect(page.getByTestId('exchange-row')).toHaveCount(10)
        await page.screenshot({
          path: `${folder}/exchange-log-list-${size.width}.png`,
          fullPage: true,
        })
        await expectNoHorizontalOverflow(page, `the log's list at ${size.width} px`)
      }
      await settle(page, view)
      const slug = view.toLowerCase().replaceAll(' ', '-')
      await page.screenshot({ path: `${folder}/${slug}-${size.width}.png`, fullPage: true })
      await expectNoHorizontalOverflow(page, `${view} at ${size.width} px`)
      if (view === 'Exchange log' && size.width === 1280) {
        // The README's picture: the refused call and the engine's reason, in view.
        await page.getByTestId('trace-call').first().scrollIntoViewIfNeeded()
        await page.screenshot({ path: `${folder}/exchange-log.png` })
      }
    }
    // The reverse question, in Authorizations: who reaches a key the limited token reaches too.
    await page.evaluate(
      (hash) => (window.location.hash = hash),
      `#/authorizations?${new URLSearchParams({ who: 'key', whoBucket: 'customers', whoKey: 'eu/ada' })}`,
    )
    const who = page.getByTestId('who-reaches')
    await expect(who.getByTestId('who-verdict')).toHaveText(
      /^\d+ tokens reach bucket customers, key eu\/ada at /,
    )
    await expect(
      who.getByTestId('who-row').filter({ hasText: /^Authorization \[auth\.create, / }),
    ).toContainText('keyv.get by keyv.get?bucket=customers&prefix=eu%2F')
    await who.scrollIntoViewIfNeeded()
    await who.screenshot({ path: `${folder}/who-reaches-${size.width}.png` })
    await expectNoHorizontalOverflow(page, `who reaches a key at ${size.width} px`)
  })
}

// One page for both widths: the contract is opened and replayed again at each, after a reload.
test('a replayed contract with a step that differs, at each width', async ({ app }) => {
  const { page } = app
  for (const [index, size] of WIDTHS.entries()) {
    await test.step(`at ${size.width} px`, async () => {
      if (index > 0) await app.reload()
      await page.setViewportSize(size)
      await openView(page, 'Exchange log')
      await openContract(page, wrongNotes())
      await expect(await replay(page)).toContainText('1 differs')
      await page.screenshot({ path: `${folder}/contract-${size.width}.png`, fullPage: true })
      await expectNoHorizontalOverflow(page, `the replayed contract at ${size.width} px`)
      if (size.width === 1280) {
        // The README's picture: the summary, then the step that differs, what differed, the
        // request and the answer.
        await page.getByTestId('contract').evaluate((panel) => panel.scrollIntoView())
        await page.screenshot({ path: `${folder}/contract.png` })
      }
    })
  }
})

for (const size of WIDTHS) {
  test(`the starter scenarios, listed and one loaded, at ${size.width} px`, async ({ app }) => {
    const { page } = app
    await page.setViewportSize(size)
    // On the first screen, under the account's secret.
    const picker = page.getByTestId('scenarios')
    await expect(picker.getByRole('button', { name: 'Why was I refused' })).toBeVisible()
    await page.screenshot({ path: `${folder}/first-screen-${size.width}.png`, fullPage: true })
    await expectNoHorizontalOverflow(page, `the first screen at ${size.width} px`)
    // In Settings, each with what it holds.
    await openView(page, 'Settings')
    const listed = page.getByTestId('scenarios')
    await expect(listed.getByRole('heading', { name: 'Starter scenarios' })).toBeVisible()
    await listed.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${folder}/scenarios-${size.width}.png` })
    await expectNoHorizontalOverflow(page, `the scenarios at ${size.width} px`)
    // Loaded on a fresh account, without a question: the log, on its refusals.
    await listed.getByRole('button', { name: 'Why was I refused' }).click()
    await expect(page).toHaveURL(/#\/log\?code=refused$/)
    await expect(page.getByTestId('scenario-note')).toContainText('Scenario: Why was I refused.')
    await expect(page.getByTestId('exchange-row')).toHaveCount(3)
    await page.screenshot({ path: `${folder}/scenario-loaded-${size.width}.png`, fullPage: true })
    await expectNoHorizontalOverflow(page, `a loaded scenario at ${size.width} px`)
  })
}

for (const size of WIDTHS) {
  test(`what a token can do, and two tokens compared, at ${size.width} px`, async ({
    app,
    wire,
    account,
  }) => {
    test.slow()
    const { page } = app
    await page.setViewportSize(size)
    // Both tokens hang from a secret rolling decades from now; the first also expires in a day.
    const rolling = await account.createSecret()
    await account.roll(rolling.id, (await account.now()) + 90 * 365 * 86_400)
    const limited = await fillAccount(wire, rolling.key)
    const other = await wire.call('auth.create', {
      token: rolling.key,
      contentType: 'application/vnd.service+json',
      accept: 'text/plain',
      body: tuples(['abilities', ['type', 'keyv.get?bucket=customers', 'core.ping']]),
    })
    expect(other.status).toBe(200)
    await openView(page, 'Authorizations')
    await expect(page.getByTestId('authorization-row')).toHaveCount(2)
    await app.reload()
    await page.evaluate(
      (hash) => (window.location.hash = hash),
      `#/authorizations?${new URLSearchParams({
        inspect: `authorization:${limited}`,
        a: `authorization:${limited}`,
        b: `authorization:${other.body}`,
      })}`,
    )
    const reach = page.getByTestId('reach')
    await expect(reach.getByTestId('reach-count')).toHaveText(/It can call 13 of the 31 endpoints/)
    await expect(reach.getByTestId('reach-bucket')).toHaveCount(5)
    await expect(reach.getByTestId('reach-timeline')).toContainText('89 years')
    await page
      .locator('section.inspector')
      .screenshot({ path: `${folder}/reach-${size.width}.png` })
    const diff = page.getByTestId('token-diff')
    await expect(diff.locator('[data-kind="time"]')).toHaveCount(1)
    await diff.screenshot({ path: `${folder}/diff-${size.width}.png` })
    await expectNoHorizontalOverflow(page, `the grid and the diff at ${size.width} px`)
  })
}

test("a CI job's summary: verify's differing step, a failed test's refusal and the coverage gate, as the job's page shows them", async ({
  page,
}) => {
  // A real summary: the commands write it as they do in a job (`--summary` in place of
  // GITHUB_STEP_SUMMARY), over the notes contract with one expectation wrong.
  // The contract at a path of the checkout's, so that the picture names the same file each run.
  const dir = 'test-results/job-summary'
  mkdirSync(join(dir, 'contracts'), { recursive: true })
  try {
    const contract = join(dir, 'contracts/notes.json')
    writeFileSync(contract, wrongNotes().buffer)
    const markdown = join(dir, 'summary.md')
    const quiet = { out: () => {}, err: () => {} }
    const verify = ['verify', contract, '--target', 'handle', '--service-name', 'service']
    const junit = ['--junit', join(dir, 'contract-results.xml'), '--summary', markdown]
    expect(await main([...verify, ...junit], quiet)).toBe(1)
    // A test that failed under the kit's helpers: its calls, and the one refused.
    const service = await createHarness({ exchangeLog: 10 })
    const token = await service.authorize({ abilities: ['keyv?bucket=notes'] })
    const read = [
      ['$$', 'bucket', 'todo'],
      ['$$', 'key', 'milk'],
    ]
    await service.tuples('keyv.get', read, { token })
    await summarizeFailedTest(
      {
        baseUrl: service.baseUrl,
        serviceName: service.serviceName,
        journal: async (after) => ({
          capacity: 10,
          exchanges: await service.engine.operator.journal.list(after),
        }),
        secrets: () => service.engine.account.listSecrets(),
      },
      { name: 'todo.test.ts › reads the shopping list' },
      { GITHUB_STEP_SUMMARY: markdown },
    )
    const coverage = fileURLToPath(
      new URL('../examples/proc-client/coverage.expected.json', import.meta.url),
    )
    const gate = ['--min', '50', '--out', join(dir, 'coverage'), '--summary', markdown]
    expect(await main(['coverage', coverage, ...gate], quiet)).toBe(1)
    const text = readFileSync(markdown, 'utf8')
    await page.setViewportSize({ width: 1100, height: 800 })
    await page.setContent(summaryPage(text))
    await expect(page.getByRole('heading', { name: /verify/ })).toBeVisible()
    await expect(page.getByText('- result at /title: "Oat milk"')).toBeVisible()
    await expect(page.getByRole('cell', { name: 'outside_limit: authorization' })).toBeVisible()
    for (const value of [service.secret.key, token]) expect(text).not.toContain(value)
    await expect(
      page.getByRole('heading', { name: /authorization coverage: 45\.4%/ }),
    ).toBeVisible()
    await page.screenshot({ path: `${folder}/job-summary.png`, fullPage: true })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test("a failed test's link, and the page it opens: the step replayed on a throwaway account", async ({
  page,
}) => {
  // A test that failed under the kit: its calls, the last one refused, and the link the kit adds
  // under its error (Vitest's words for `expect(status).toBe(200)`).
  const service = await createHarness({ exchangeLog: 10 })
  const token = await service.authorize({ abilities: ['keyv?bucket=notes'] })
  const read = [
    ['$$', 'bucket', 'todo'],
    ['$$', 'key', 'milk'],
  ]
  const refused = await service.tuples('keyv.get', read, { token })
  expect(refused.status).toBe(401)
  const failed: FailedResult = {
    state: 'fail',
    errors: [
      { message: `AssertionError: expected ${refused.status} to be 200 // Object.is equality` },
    ],
  }
  const source = {
    baseUrl: service.baseUrl,
    serviceName: service.serviceName,
    journal: async (after?: number) => ({
      capacity: 10,
      exchanges: await service.engine.operator.journal.list(after),
    }),
    secrets: () => service.engine.account.listSecrets(),
  }
  await linkFailure(failed, async () => source, 'reads the shopping list')
  const text = failed.errors![0]!.message
  const link = /https?:\/\/\S+#r=v1\.[A-Za-z0-9_-]+/.exec(text)?.[0]
  expect(link, text).toBeDefined()
  for (const value of [service.secret.key, token]) expect(text).not.toContain(value)
  await page.setViewportSize({ width: 1100, height: 200 })
  await page.setContent(terminalPage(` FAIL  todo.test.ts > reads the shopping list\n${text}\n`))
  await page.screenshot({ path: `${folder}/failed-test-link.png`, fullPage: true })

  // The link opened in the playground (this server's page in place of \`npm start\`'s), in a
  // browser that never opened it: nothing of the page reaches the default base URL's host.
  await page.setViewportSize({ width: 1280, height: 1100 })
  await page.goto(`/${new URL(link!).hash}`)
  const shared = page.getByTestId('step-link')
  await expect(shared.getByRole('heading', { name: /A shared step: step 2 of/ })).toBeVisible({
    timeout: 15_000,
  })
  const detail = shared.getByTestId('exchange-detail')
  await expect(detail.getByRole('heading', { name: /keyv\.get/ })).toBeVisible()
  await expect(detail).toContainText('401')
  await expect(detail.getByTestId('counterfactual').first()).toBeVisible()
  // The page's own service has started behind the step: its console is offered.
  await expect(detail.getByTestId('open-in-console')).toBeVisible({ timeout: 15_000 })
  await expectNoHorizontalOverflow(page, 'the shared step')
  await page.screenshot({ path: `${folder}/step-link.png` })
})
