import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseCaseFile } from '../src/conformance/cases'
import { loadContracts } from '../src/conformance/contract/load'
import { verifyContracts } from '../src/conformance/contract/verify'
import type { CaseResult } from '../src/conformance/run'
import { handleTarget } from '../src/conformance/targets'
import { loadContractCode, type ContractApi } from './contract-code'
import { expect, test } from './fixtures'
import { pageTarget } from './page-target'

const notes = fileURLToPath(new URL('../examples/notes/contracts', import.meta.url))
const baseUrl = 'https://api.service.test'

const outcome = (results: Pick<CaseResult, 'id' | 'status' | 'stepResults'>[]) =>
  results.map((r) => [r.id, r.status, r.stepResults.map((s) => s.status)])

// The notes example's committed contracts, replayed through the service worker into the
// playground's engine over real IndexedDB.
test('the notes example’s contracts pass in Chromium, twice the same', async ({ page }) => {
  const contracts = loadContracts([notes])
  const target = await pageTarget(page, { baseUrl, serviceName: 'service' })
  const first = await verifyContracts(target, contracts)
  expect(first.map((r) => [r.id, r.status, r.reason])).toEqual(
    contracts.map((c) => [c.id, 'passed', undefined]),
  )
  expect(outcome(await verifyContracts(target, contracts))).toEqual(outcome(first))
})

// What the playground's exchange log will do: record from its own journal, replay in the page.
test('the contract code runs in the page: recorded there, verified by Node; verified there', async ({
  page,
}) => {
  await loadContractCode(page, { baseUrl, serviceName: 'service' })
  const recorded = await page.evaluate(async (base) => {
    const call = (name: string, token: string, tuples: unknown[]) =>
      fetch(`${base}/${name.split('.').join('/')}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/vnd.service+json',
          accept: 'application/vnd.service+json',
        },
        body: JSON.stringify(tuples),
      }).then((response) => response.json() as Promise<[[string, unknown]]>)
    const json = (path: string, init?: RequestInit) =>
      fetch(`${base}/_account/${path}`, init).then((response) => response.json())
    const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }
    await json('reset', post)
    const secret = (await json('secrets', post)) as { key: string }
    const [[, token]] = await call('auth.create', secret.key, [
      ['$$', 'abilities', ['keyv.get']],
      ['$$', 'ttl', 60],
    ])
    await call('keyv.get', token as string, [['$$', 'key', 'a']])
    await call('keyv.set', token as string, [
      ['$$', 'key', 'a'],
      ['$$', 'value', 1],
    ])
    const { exchanges } = (await json('exchanges')) as { exchanges: unknown[] }
    const api = (window as unknown as { contracts: ContractApi }).contracts
    return api.formatContract(
      api.recordContract(exchanges as never, {
        name: 'reads with a limited authorization',
        serviceName: 'service',
        baseUrl: base,
        secrets: (await json('secrets')) as never,
      }),
    )
  }, baseUrl)
  const [result] = await verifyContracts(handleTarget(), parseCaseFile('page.json', recorded))
  expect([result!.status, result!.stepResults.map((s) => s.label)]).toEqual([
    'passed',
    ['auth.create', 'keyv.get', 'keyv.set'],
  ])

  const files = readdirSync(notes).map((name) => [name, readFileSync(join(notes, name), 'utf8')])
  const inPage = await page.evaluate(
    async ({ base, files }) => {
      const api = (window as unknown as { contracts: ContractApi }).contracts
      const cases = files.flatMap(([name, text]) => api.parseCaseFile(name, text))
      const target = api.fetchTarget({ baseUrl: base, serviceName: 'service', control: true })
      const results = await api.verifyContracts(target, cases)
      return results.map((r) => ({ id: r.id, status: r.status, stepResults: r.stepResults }))
    },
    { base: baseUrl, files: files as Array<[string, string]> },
  )
  expect(outcome(inPage).map(([, status]) => status)).toEqual(
    loadContracts([notes]).map(() => 'passed'),
  )
})
