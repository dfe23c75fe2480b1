/**
 * Insight from the kit (decisions 055–057): `service.reach`, `simulate` and `diff`, the matchers
 * a policy test reads as, and coverage added up in one file across the tests of a run.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { coverageTable } from '../cli/conformance/coverage-render'
import {
  coverageReport,
  tallyChecks,
  type CoverageReport,
  type PolicyCheck,
} from '../engine/insight'
import { tuplesRequest } from '../testing/tuples'
import { addCoverage, runId } from './coverage-collect'
import { registerInsight } from './reach-matchers'
import { testRecords } from './test-records'
import { useService } from './vitest'

const dir = mkdtempSync(join(tmpdir(), 'kit-insight-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const proc = useService({ baseUrl: 'https://insight.test' })

describe('insight from useService', () => {
  it('answers reach, simulate and diff for the file’s service', async () => {
    const token = await proc.authorize(['keyv.get?bucket=users', 'type.string'], { ttl: 60 })
    const reach = await proc.reach(token)
    expect(reach.endpoints.find((e) => e.endpoint === 'keyv.get')).toMatchObject({
      decision: 'allowed',
      limits: [{ bucket: 'users', prefix: null }],
    })
    expect(reach.stops.because).toBe('expiry')
    const { results } = await proc.simulate(token, [
      { endpoint: 'keyv.get', args: { bucket: 'admin', key: 'k' } },
    ])
    expect(results[0]).toMatchObject({ decision: 'refused', code: 'outside_limit' })
    const wider = await proc.authorize(['keyv.get', 'type.string'])
    const diff = await proc.diff(token, wider)
    expect(diff.gained.map((i) => [i.kind, i.endpoint])).toEqual([
      ['limit', 'keyv.get'],
      ['time', 'type.string.reverse'],
    ])
  })

  it('reads as a policy test: toReach, not.toReach, toBeNarrowerThan', async () => {
    const token = await proc.authorize(['keyv.get?bucket=users&prefix=alice/', 'core.ping'])
    await expect(token).toReach('keyv.get', { bucket: 'users' })
    await expect(token).toReach('keyv.get', { bucket: 'users', key: 'alice/1' })
    await expect(token).not.toReach('keyv.get', { bucket: 'users', key: 'bob/1' })
    await expect(token).not.toReach('keyv.get', { bucket: 'admin' })
    await expect(token).not.toReach('keyv.delete')
    await expect(token).toReach('core.ping')
    const parent = await proc.authorize(['keyv.get?bucket=users', 'core'])
    await expect(token).toBeNarrowerThan(parent)
    await expect(parent).not.toBeNarrowerThan(token)

    await expect(expect(token).toReach('keyv.delete')).rejects.toThrow(
      "expected the token to reach `keyv.delete', but no ability covers `keyv.delete'; the authorization holds `keyv.get?bucket=users&prefix=alice/', `core.ping'; an authorization holding `keyv.delete' (or `keyv') would have been let in",
    )
    await expect(expect(token).toReach('keyv.get', { bucket: 'admin' })).rejects.toThrow(
      /reaches `keyv.get' only within `keyv.get\?bucket=users&prefix=alice\/'/,
    )
    await expect(expect(parent).toBeNarrowerThan(token)).rejects.toThrow(
      /reaches 6 thing\(s\) more:\n {2}- reaches `core.echo', which the other cannot call: \{"endpoint":"core.echo"\}\n/,
    )
    // What it cannot judge is an error, with .not as without: never a pass.
    // Each assertion is made only when awaited: none may reject unobserved.
    for (const refused of [
      () => expect('not-a-token').not.toReach('core.ping'),
      () => expect(token).not.toReach('keyv.gte'),
      () => expect(token).not.toReach('keyv.get', { bukcet: 'users' } as never),
      () => expect(Promise.resolve(token)).not.toReach('core.ping'),
      () => expect(token).not.toBeNarrowerThan('not-a-token'),
    ]) {
      await expect(refused()).rejects.toThrow(
        /is not a token of the running service|has no endpoint `keyv.gte'|unknown key `bukcet'|received a Promise/,
      )
    }
  })
})

describe('least privilege from the kit', () => {
  it('holds a token to its use: toBeNoWiderThanItsUse fails for the wide one, passes for the suggestion', async () => {
    const wide = await proc.authorize(['type.string', 'keyv'])
    const calls = async (token: string) => {
      const reversed = await fetch(
        tuplesRequest(proc.baseUrl, 'type.string.reverse', token, [['>>', 'abc']]),
      )
      expect(reversed.status).toBe(200)
      const got = await fetch(
        tuplesRequest(proc.baseUrl, 'keyv.get', token, [
          ['$$', 'bucket', 'users'],
          ['$$', 'key', 'alice/1'],
        ]),
      )
      expect(got.status).not.toBe(401)
    }
    await calls(wide)
    await expect(wide).not.toBeNoWiderThanItsUse()
    await expect(expect(wide).toBeNoWiderThanItsUse()).rejects.toThrow(
      /reaches 9 endpoint\(s\) and \d+ key-value region\(s\) beyond it; its calls need only `keyv.get\?bucket=users&prefix=alice\/1', `type.string.reverse':\n {2}- `type.string' reaches/,
    )
    // Within a slack of endpoints, still held to the key-value region used.
    await expect(wide).not.toBeNoWiderThanItsUse({ endpoints: 20 })
    const [found] = (await proc.leastPrivilege(wide)).tokens
    const narrow = await proc.authorize(found!.suggestion.abilities)
    await calls(narrow)
    await expect(narrow).toBeNoWiderThanItsUse()
    // What it cannot judge is an error, with .not as without.
    const unused = await proc.authorize(['core.ping'])
    for (const refused of [
      () => expect(unused).not.toBeNoWiderThanItsUse(),
      () => expect(proc.secret).not.toBeNoWiderThanItsUse(),
      () => expect(narrow).not.toBeNoWiderThanItsUse({ endpoint: 1 } as never),
    ]) {
      await expect(refused()).rejects.toThrow(
        /holds no call made with the token|is a secret key|unknown key `endpoint'/,
      )
    }
  })
})

describe('coverage from the kit', () => {
  it('adds up every test of a run in one file, and starts afresh for a new run', async () => {
    const token = await proc.authorize(['core'])
    await fetch(tuplesRequest(proc.baseUrl, 'core.ping', token, []))
    const { tallyCoverage } = await import('../engine/insight')
    const journal = await proc.service.engine.operator.journal.list()
    const tally = tallyCoverage(journal)
    const file = join(dir, 'cover', 'service-coverage.json')
    await addCoverage('cover/service-coverage.json', dir, tally)
    await addCoverage(file, '/elsewhere', tally)
    const twice = JSON.parse(readFileSync(file, 'utf8')) as CoverageReport & { run: string }
    expect(twice.run).toBe(runId())
    expect(twice.entries).toBe(2 * tally.entries)
    expect(twice.abilities).toEqual([
      { ability: 'core', minted: 2, allowed: 2, refused: 0, checked: { allowed: 0, refused: 0 } },
    ])
    expect(JSON.stringify(twice)).not.toContain(token)
    writeFileSync(file, JSON.stringify({ ...twice, run: 'an earlier run' }))
    await addCoverage(file, dir, tally)
    expect((JSON.parse(readFileSync(file, 'utf8')) as CoverageReport).entries).toBe(tally.entries)
  })

  it('counts what a passing toReach showed, apart from calls, and no failing one', async () => {
    const token = await proc.authorize(['keyv.get?bucket=users', 'core.ping'])
    const checks: PolicyCheck[] = []
    const unregister = registerInsight({
      reach: proc.reach,
      simulate: proc.simulate,
      diff: proc.diff,
      leastPrivilege: proc.leastPrivilege,
      checked: (check) => checks.push(check),
    })
    try {
      await expect(token).toReach('keyv.get', { bucket: 'users', key: 'a' })
      await expect(token).toReach('core.ping')
      await expect(token).not.toReach('keyv.get', { bucket: 'admin' })
      await expect(token).not.toReach('keyv.set')
      // A failing assertion shows nothing, either way.
      await expect(expect(token).not.toReach('core.ping')).rejects.toThrow()
      await expect(expect(token).toReach('keyv.delete')).rejects.toThrow()
    } finally {
      unregister()
    }
    expect(checks).toEqual([
      { ability: 'keyv.get?bucket=users', shown: 'allowed' },
      { ability: 'core.ping', shown: 'allowed' },
      { ability: 'keyv.get?bucket=users', shown: 'refused' },
      { ability: 'keyv.get?bucket=users', shown: 'refused' },
      { ability: 'core.ping', shown: 'refused' },
    ])
    const report = coverageReport(tallyChecks(checks))
    expect(report.abilities).toEqual([
      {
        ability: 'core.ping',
        minted: 0,
        allowed: 0,
        refused: 0,
        checked: { allowed: 1, refused: 1 },
      },
      {
        ability: 'keyv.get?bucket=users',
        minted: 0,
        allowed: 0,
        refused: 0,
        checked: { allowed: 1, refused: 2 },
      },
    ])
    // Shown both ways: no ability flagged as never exercised.
    expect(report.flags.filter((f) => f.kind.startsWith('ability_'))).toEqual([])
    expect(coverageTable(report)).toMatch(/keyv\.get\?bucket=users +0 +0 +0 +1 +2/)
    expect(JSON.stringify(report)).not.toContain(token)
  })

  it('adds what the matchers showed to the coverage file, with the calls', async () => {
    const file = join(dir, 'checked', 'service-coverage.json')
    // Only the matchers' verdicts: no journal is read.
    const records = testRecords(() => Promise.reject(new Error('unread')), { coverage: file })
    records.checked({ ability: 'core', shown: 'refused' })
    records.checked({ ability: 'core', shown: 'refused' })
    await records.flush()
    const written = JSON.parse(readFileSync(file, 'utf8')) as CoverageReport
    expect(written.abilities).toEqual([
      { ability: 'core', minted: 0, allowed: 0, refused: 0, checked: { allowed: 0, refused: 2 } },
    ])
    const abilityFlags = written.flags.filter((f) => f.kind.startsWith('ability_'))
    expect(abilityFlags.map((f) => [f.kind, f.subject])).toEqual([
      ['ability_never_allowed', 'core'],
    ])
  })
})
