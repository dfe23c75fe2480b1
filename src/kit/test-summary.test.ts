// A failed test's section in the job's summary, written by the helpers' shared end-of-test
// hook (`testRecords`, which Vitest's and Jest's helpers call; Playwright's fixture calls the
// same writer): its calls, each refusal with its endpoint, reason and counterfactual, and no
// secret or token. A passing test writes nothing.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createHarness, type Harness } from '../testing/engine-harness'
import type { ContractSource } from './contract'
import { testRecords } from './test-records'

const dir = mkdtempSync(join(tmpdir(), 'test-summary-'))
const summary = join(dir, 'summary.md')
afterAll(() => rmSync(dir, { recursive: true, force: true }))
afterEach(() => vi.unstubAllEnvs())

let service: Harness
let source: ContractSource
let token: string
beforeAll(async () => {
  service = await createHarness({ exchangeLog: 20 })
  source = {
    baseUrl: service.baseUrl,
    serviceName: service.serviceName,
    journal: async (after) => ({
      capacity: 20,
      exchanges: await service.engine.operator.journal.list(after),
    }),
    secrets: () => service.engine.account.listSecrets(),
  }
  token = await service.authorize({ abilities: ['keyv?bucket=notes'] })
})

const lastId = async () => (await source.journal()).exchanges[0]!.id

describe("a failed test's job summary", () => {
  it('lists the calls and each refusal with its endpoint, reason and counterfactual, withholding nothing it should show and showing no secret', async () => {
    vi.stubEnv('GITHUB_STEP_SUMMARY', summary)
    writeFileSync(summary, '')
    const after = await lastId()
    await service.tuples(
      'keyv.set',
      [
        ['$$', 'bucket', 'notes'],
        ['$$', 'key', 'k'],
        ['$$', 'value', 1],
      ],
      { token },
    )
    await service.tuples(
      'keyv.get',
      [
        ['$$', 'bucket', 'todo'],
        ['$$', 'key', 'k'],
      ],
      { token },
    )
    await service.call('core.ping', { token: 'not-a-token-at-all-0123' })
    const records = testRecords(async () => source, {})
    await records.record({ name: 'notes.test.ts › reads the todo list', root: dir, after }, false)
    await records.record({ name: 'notes.test.ts › passes', root: dir, after }, true)

    const text = readFileSync(summary, 'utf8')
    expect(text).toMatch(/^### ❌ notes\.test\.ts › reads the todo list\n/)
    expect(text).toContain(
      'The test failed after 3 calls to the service (`keyv.set` ×1, `keyv.get` ×1, `core.ping` ×1); 2 refused:',
    )
    const rows = text.split('\n').filter((line) => line.startsWith('| `'))
    expect(rows).toHaveLength(2)
    expect(rows[0]).toMatch(
      /^\| `keyv\.get` \| 401 \| outside_limit: authorization does not have the ability to access service \\`keyv\.get' \| .* would reach bucket \\`todo' for key \\`k'.* \|$/,
    )
    expect(rows[1]).toMatch(/^\| `core\.ping` \| 401 \| \w+: .* \|/)
    expect(text).not.toContain('passes')
    for (const value of [service.secret.key, token, 'not-a-token-at-all-0123']) {
      expect(text).not.toContain(value.slice(0, 12))
    }
  })

  it('withholds a section that would show a token, and writes nothing without a summary file', async () => {
    vi.stubEnv('GITHUB_STEP_SUMMARY', summary)
    writeFileSync(summary, '')
    const records = testRecords(async () => source, {})
    // A test named after its token (as a careless title might be) is withheld whole.
    await records.record({ name: `uses ${token}`, root: dir, after: 0 }, false)
    expect(readFileSync(summary, 'utf8')).toBe(
      '### ⚠️ a section was withheld\n\nIt would have shown a secret or token.\n\n',
    )
    vi.stubEnv('GITHUB_STEP_SUMMARY', '')
    writeFileSync(summary, '')
    await records.record({ name: 'fails', root: dir, after: await lastId() }, false)
    expect(readFileSync(summary, 'utf8')).toBe('')
  })
})
