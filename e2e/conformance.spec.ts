import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseCaseFile } from '../src/conformance/cases'
import { getCasesDir, loadCases } from '../src/conformance/load-cases'
import { formatContract } from '../src/conformance/contract/format'
import { recordContract } from '../src/conformance/contract/record'
import { verifyContracts } from '../src/conformance/contract/verify'
import { createEngine, type ExchangeRecord } from '../src/engine'
import { createMemoryStore } from '../src/storage'
import { loadContractCode, type ContractApi } from './contract-code'
import { expect, test } from './fixtures'
import { pageTarget } from './page-target'

const baseUrl = 'https://conformance.proc.test'
const serviceName = 'proc'
const cases = loadCases()

// Every case through the real service worker into the engine over real IndexedDB. The cases run
// in the page with the contract code, so each request costs the service worker's round trip and
// not one to the test as well.
test(`the conformance cases pass in Chromium through the service worker (${cases.length})`, async ({
  page,
}) => {
  // About a minute beside two other browsers on two cores.
  test.setTimeout(240_000)
  await loadContractCode(page, { baseUrl, serviceName })
  const dir = getCasesDir()
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name): [string, string] => [name, readFileSync(join(dir, name), 'utf8')])
  const { ran, failures } = await page.evaluate(
    async ({ baseUrl, serviceName, files }) => {
      const api = (window as unknown as { contracts: ContractApi }).contracts
      const all = files.flatMap(([name, text]) => api.parseCaseFile(name, text))
      const target = api.fetchTarget({ baseUrl, serviceName, control: true })
      const results = await api.runCases(target, all)
      return {
        ran: results.map((r) => r.id),
        failures: results.filter((r) => r.status !== 'passed').map((r) => `${r.id}: ${r.reason}`),
      }
    },
    { baseUrl, serviceName, files },
  )
  expect(ran).toEqual(cases.map((c) => c.id))
  expect(failures).toEqual([])
})

/** A page's calls to an engine named `service` in Node: a limited token, paging, expiry. */
async function recordNotes() {
  const origin = 'https://notes.service.test'
  const engine = createEngine({
    store: createMemoryStore(),
    serviceName: 'service',
    baseUrl: origin,
    exchangeLog: 100,
  })
  const [secret] = await engine.start()
  const send = (path: string, token: string, init: RequestInit = {}) =>
    engine.handle(
      new Request(`${origin}/${path}`, {
        method: 'POST',
        ...init,
        headers: { authorization: `Bearer ${token}`, ...(init.headers as object) },
      }),
    )
  const tuples = { 'content-type': 'application/vnd.service+json', accept: 'text/plain' }
  const minted = await send('auth/create', secret!, {
    headers: tuples,
    body: JSON.stringify([
      ['$$', 'abilities', ['keyv?bucket=notes']],
      ['$$', 'ttl', 60],
    ]),
  })
  const token = await minted.text()
  for (const key of ['a', 'b']) {
    await send(`keyv/set?bucket=notes&key=${key}`, token, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: `note ${key}` }),
    })
  }
  const first = await send('keyv/scan?bucket=notes&count=1', token)
  await send(`keyv/scan?bucket=notes&count=1&cursor=${first.headers.get('x-cursor')}`, token)
  await send('keyv/get?bucket=elsewhere&key=a', token)
  await engine.handle(
    new Request(`${origin}/_account/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance: 61 }),
    }),
  )
  await send('keyv/get?bucket=notes&key=a', token)
  const journal = await engine.handle(new Request(`${origin}/_account/exchanges`))
  const { exchanges } = (await journal.json()) as { exchanges: ExchangeRecord[] }
  const file = recordContract(exchanges, {
    name: 'keeps notes',
    serviceName: 'service',
    baseUrl: origin,
    secrets: await engine.account.listSecrets(),
  })
  return parseCaseFile('notes.json', formatContract(file))
}

test('a contract recorded in Node passes in Chromium, twice the same', async ({ page }) => {
  const contract = await recordNotes()
  expect(contract[0]!.steps.some((step) => 'advance' in step)).toBe(true)
  const target = await pageTarget(page, { baseUrl, serviceName })
  const outcome = async () =>
    (await verifyContracts(target, contract)).map((r) => [
      r.status,
      r.reason ?? '',
      r.stepResults.map((s) => s.status),
    ])
  const first = await outcome()
  expect(first[0]!.slice(0, 2)).toEqual(['passed', ''])
  expect(await outcome()).toEqual(first)
})
