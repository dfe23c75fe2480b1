/**
 * The notes example (examples/notes) end to end: its Playwright tests record its contracts
 * afresh — in-process, and over one `serve` with an account per worker — to the bytes
 * committed in examples/notes/contracts; those verify on `handle` and `serve`, twice the same
 * (in Chromium: e2e/contracts.spec.ts); none holds a token; and an engine whose key-value
 * limits no longer hold fails the right contract at the right step, in words a person reads.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { parseCaseFile, type Case } from '../conformance/cases'
import { TOKEN_SHAPE } from '../conformance/contract/answer'
import { loadContracts } from '../conformance/contract/load'
import { verifyContracts } from '../conformance/contract/verify'
import { stepReport } from '../conformance/report'
import type { CaseResult, Target } from '../conformance/run'
import { handleTarget, serveTarget } from '../conformance/targets'
import { spawnServe } from '../server/spawn-serve'
import { cleanEnvironment, run, shown } from '../testing/run-command'
import type * as Abilities from '../engine/auth/abilities'
import { CONTRACT_DIR_VARIABLE } from './contract'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const CONTRACTS = join(ROOT, 'examples/notes/contracts')
const committed = readdirSync(CONTRACTS).filter((name) => name.endsWith('.json'))
const scratch = mkdtempSync(join(tmpdir(), 'notes-contracts-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Runs the example's Playwright tests, its contracts written under `dir`. */
async function record(dir: string, extra: Record<string, string> = {}) {
  const ran = await run('npx', ['playwright', 'test', '-c', 'examples/notes'], ROOT, {
    [CONTRACT_DIR_VARIABLE]: dir,
    ...extra,
  })
  expect(ran.code, shown(ran)).toBe(0)
  expect(ran.stdout).toMatch(/3 passed/)
  for (const name of committed) {
    expect(readFileSync(join(dir, 'contracts', name), 'utf8'), name).toBe(
      readFileSync(join(CONTRACTS, name), 'utf8'),
    )
  }
  // The coverage the fixture added up over the run is the one the contracts give (committed).
  const {
    run: _run,
    $schema: _schema,
    ...collected
  } = JSON.parse(readFileSync(join(dir, 'coverage/service-coverage.json'), 'utf8')) as Record<
    string,
    unknown
  >
  expect(collected).toEqual(
    JSON.parse(readFileSync(join(ROOT, 'examples/notes/coverage/expected.json'), 'utf8')),
  )
}

const contracts = (): Case[] => loadContracts([CONTRACTS])

/** Each contract's outcome, step by step, with every difference. */
const outcome = (results: CaseResult[]) =>
  results.map((r) => [
    r.id,
    r.status,
    r.stepResults.map((s) => [s.index, s.status, ...s.differences.map((d) => d.what)]),
  ])

async function verifyTwice(target: Target) {
  const first = await verifyContracts(target, contracts())
  expect(first.map((r) => [r.id, r.status, r.reason])).toEqual(
    contracts().map((c) => [c.id, 'passed', undefined]),
  )
  expect(outcome(await verifyContracts(target, contracts()))).toEqual(outcome(first))
}

describe('the notes example', () => {
  it('has its contracts committed, with no token, secret key or cursor in them', () => {
    expect(committed).toEqual(['notes.json'])
    for (const name of committed) {
      const text = readFileSync(join(CONTRACTS, name), 'utf8')
      const strings = [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map(([, s]) => s!)
      expect(strings.filter((s) => TOKEN_SHAPE.test(s))).toEqual([])
      // Secret keys and cursors are long runs of base64url; every credential is a role.
      expect(strings.filter((s) => /^[A-Za-z0-9_-]{24,}$/.test(s))).toEqual([])
      const tokens = parseCaseFile(name, text).flatMap((c) =>
        c.steps.flatMap((s) => ('call' in s && s.token !== undefined ? [s.token] : [])),
      )
      expect(new Set(tokens)).toEqual(new Set(['$auth1']))
    }
  })

  it('records them afresh in-process, the same bytes as those committed', async () => {
    await record(join(scratch, 'in-process'))
  }, 300_000)

  it('records them afresh over one serve, an account per worker, the same bytes', async () => {
    const server = await spawnServe(['--port', '0'], {
      command: ['npm', 'run', 'serve', '--'],
      cwd: ROOT,
      env: cleanEnvironment(),
    })
    try {
      await record(join(scratch, 'serve'), {
        SERVICE_PLAYGROUND_URL: server.url,
        SERVICE_PLAYGROUND_CONTROL_TOKEN: server.controlToken,
      })
    } finally {
      await server.stop()
    }
  }, 300_000)

  it('verifies them on handle, twice the same', async () => {
    await verifyTwice(handleTarget())
  })

  it('verifies them on serve, twice the same', async () => {
    const target = await serveTarget(ROOT)
    try {
      await verifyTwice(target)
    } finally {
      await target.close()
    }
  }, 60_000)

  it('fails the right contract at the right step when a key-value limit no longer holds', async () => {
    vi.resetModules()
    vi.doMock('../engine/auth/abilities', async (original) => {
      const real = await original<typeof Abilities>()
      // The changed rule: an ability with a bucket limit reaches every bucket.
      return { ...real, grantingTarget: real.granting }
    })
    try {
      const { handleTarget: changedTarget } = await import('../conformance/targets')
      const results = await verifyContracts(changedTarget(), contracts())
      const failed = results.filter((r) => r.status !== 'passed')
      expect(outcome(failed)).toEqual([
        [
          `${join(CONTRACTS, 'notes.json')} › notes.spec.ts › reaches no other user's notes`,
          'failed',
          [
            [1, 'passed'],
            [2, 'passed'],
            [3, 'passed'],
            [4, 'passed'],
            [5, 'passed'],
            [6, 'failed', 'status'],
          ],
        ],
      ])
      const report = stepReport('handle', failed)
      expect(report).toContain(
        '    6 DIFFERS keyv.scan\n        expected status 401, got 200 ([])\n',
      )
      expect(report).toContain('        | authorization: Bearer $auth1\n')
      expect(report).toContain('        | [["$$","bucket","notes-bob"],["$$","count",2]]\n')
    } finally {
      vi.doUnmock('../engine/auth/abilities')
      vi.resetModules()
    }
  })
})
