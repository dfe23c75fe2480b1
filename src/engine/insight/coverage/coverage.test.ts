import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../../testing/engine-harness'
import type { ExchangeRecord } from '../../operator/exchange-log'
import { coverageHtml, coverageTable } from '../../../cli/conformance/coverage-render'
import { coverageReport, mergeTallies, readCoverageInput, tallyCoverage } from '.'

let h: Harness

beforeEach(async () => {
  h = await createHarness({ exchangeLog: 100 })
})

/** An ability met nowhere yet, to spread what a test expects of it over. */
const used = (ability: string) => ({
  ability,
  minted: 0,
  allowed: 0,
  refused: 0,
  checked: { allowed: 0, refused: 0 },
})

async function journal(): Promise<ExchangeRecord[]> {
  return ((await h.control('exchanges')).body as { exchanges: ExchangeRecord[] }).exchanges
}

describe('coverage of a journal', () => {
  it('counts endpoint × credential × outcome × limit, and flags what was never exercised', async () => {
    const token = await h.authorize({
      abilities: ['keyv.get?bucket=users', 'type.string'],
      ttl: 60,
    })
    await h.call('keyv.get', { token, body: 'alice', query: { bucket: 'users' } })
    await h.call('keyv.get', { token, body: 'alice', query: { bucket: 'admin' } })
    await h.call('core.ping')
    const report = coverageReport(tallyCoverage(await journal()))
    expect(report.entries).toBe(4)
    const get = report.endpoints.find((e) => e.endpoint === 'keyv.get')!
    expect(get).toMatchObject({
      calls: 2,
      credentials: { authorization: 2, secret: 0 },
      outcomes: { allowed: 1, outside_limit: 1 },
      dimensions: { bucket: 2, expiry: 2 },
      onlySecret: false,
    })
    expect(report.abilities).toEqual([
      { ...used('keyv.get?bucket=users'), minted: 1, allowed: 1, refused: 1 },
      { ...used('type.string'), minted: 1 },
    ])
    const flagged = report.flags.map((f) => `${f.kind} ${f.subject}`)
    expect(flagged).toEqual([
      'ability_never_allowed type.string',
      'ability_never_refused type.string',
      'code_never_met missing_ability',
      'code_never_met expired',
      'code_never_met secret_rolled',
      'only_secret core.ping',
    ])
    // 2 abilities × 2, 4 relevant codes (missing_ability, outside_limit, expired, secret_rolled),
    // 2 endpoints (auth.create is a secret's to call).
    expect([report.covered, report.items]).toEqual([4, 10])
    expect(report.score).toBe(40)
    // Each endpoint's credential columns add up to its calls, a token the service does not know
    // (`unknown`) among them.
    await h.call('core.ping', { token: 'not-a-token' })
    const table = coverageTable(coverageReport(tallyCoverage(await journal())))
    expect(table).toMatch(/^endpoint +calls +secret +authorization +none +unknown +outcomes/m)
    expect(table).toMatch(/^core\.ping +2 +1 +0 +0 +1 /m)
    const text = JSON.stringify(report) + coverageTable(report) + coverageHtml(report)
    expect(text).not.toContain(token)
    expect(text).not.toContain(h.secret.key)
  })

  it('adds up tallies, and reads the journal in every form it is saved in', async () => {
    const token = await h.authorize({ abilities: ['core'] })
    await h.call('core.ping', { token })
    const exchanges = await journal()
    const one = tallyCoverage(exchanges)
    const twice = mergeTallies(one, one)
    expect(twice.entries).toBe(2 * one.entries)
    expect(twice.abilities).toEqual([{ ...used('core'), minted: 2, allowed: 2 }])
    for (const form of [exchanges, { exchanges }, { playground: { exchanges } }]) {
      const read = readCoverageInput(form)
      expect(read.kind).toBe('entries')
      if (read.kind === 'entries') expect(tallyCoverage(read.entries)).toEqual(one)
    }
    expect(readCoverageInput(JSON.parse(JSON.stringify(one)))).toEqual({
      kind: 'tally',
      tally: one,
    })
    expect(readCoverageInput({ description: 'x', cases: [] }).kind).toBe('contracts')
    expect(readCoverageInput({ nothing: 1 }).kind).toBe('unknown')
  })

  it('meets every refusal of a token: expired, rolled, insecure', async () => {
    const short = await h.authorize({ abilities: ['core'], ttl: 60 })
    await h.tuples('auth.create', [['$$', 'abilities', ['auth']]])
    h.clock.advance(61_000)
    await h.call('core.ping', { token: short })
    const lasting = await h.authorize({ abilities: ['core'] })
    await h.engine.account.rollSecret(h.secret.id)
    await h.call('core.ping', { token: lasting })
    const report = coverageReport(tallyCoverage(await journal()))
    const met = Object.fromEntries(report.refusals.map((r) => [r.code, r.met]))
    expect(met).toMatchObject({ expired: 1, secret_rolled: 1, insecure_ability: 1 })
  })
})
