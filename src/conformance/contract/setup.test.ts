/**
 * A case's setup: the fixtures its test's `beforeAll` hooks made, recorded with the case and
 * run before its steps, so that each case verifies alone and in any order; the format's
 * version; a bad setup refused naming the case and the field.
 */
import { describe, expect, it } from 'vitest'
import type { ExchangeRecord } from '../../engine'
import { createHarness, type Harness } from '../../testing/engine-harness'
import { parseCaseFile, readCaseFile, type CaseFile } from '../cases'
import { handleTarget } from '../targets'
import { addToContract, formatContract } from './format'
import { recordContract } from './record'
import { RecordError } from './record-context'
import { verifyContracts } from './verify'

const set = (key: string, value: unknown) => [
  ['$$', 'bucket', 'fixtures'],
  ['$$', 'key', key],
  ['$$', 'value', value],
]
const get = (key: string) => [
  ['$$', 'bucket', 'fixtures'],
  ['$$', 'key', key],
]

/** The journal's records, and the last id so far: where a test would begin. */
async function journal(h: Harness): Promise<{ exchanges: ExchangeRecord[]; last: number }> {
  const answer = await h.control('exchanges')
  const { exchanges } = answer.body as { exchanges: ExchangeRecord[] }
  return { exchanges, last: Math.max(0, ...exchanges.map((e) => e.id)) }
}

/**
 * A fixture (an authorization, two keys, a second secret) made before two tests, as a
 * `beforeAll` makes it; each test reads what the fixture wrote. Each test's case is recorded as
 * the kit records it: the journal up to where the test began is its setup.
 */
async function recordTwoTests(): Promise<CaseFile> {
  const h = await createHarness({ serviceName: 'service', exchangeLog: 500 })
  const token = await h.authorize({ abilities: ['keyv?bucket=fixtures'] })
  expect((await h.tuples('keyv.set', set('milk', 'two litres'), { token })).status).toBe(200)
  expect((await h.tuples('keyv.set', set('eggs', 6), { token })).status).toBe(200)
  const { last: begun } = await journal(h)
  const secrets = await h.engine.account.listSecrets()
  const cases: CaseFile[] = []
  // The first test reads one key; the second overwrites the other and reads it back.
  expect(await (await h.tuples('keyv.get', get('milk'), { token })).json()).toEqual([
    ['<<', 'two litres'],
  ])
  let { exchanges } = await journal(h)
  cases.push(
    recordContract(exchanges, {
      name: 'reads the milk',
      serviceName: h.serviceName,
      baseUrl: h.baseUrl,
      secrets,
      setupUntil: begun,
    }),
  )
  await h.tuples('keyv.set', set('eggs', 12), { token })
  expect(await (await h.tuples('keyv.get', get('eggs'), { token })).json()).toEqual([['<<', 12]])
  ;({ exchanges } = await journal(h))
  // As a frame undoes the first test: the second's journal is the setup and its own calls.
  const second = exchanges.filter((e) => e.id <= begun || e.id > begun + 1)
  cases.push(
    recordContract(second, {
      name: 'counts the eggs',
      serviceName: h.serviceName,
      baseUrl: h.baseUrl,
      secrets,
      setupUntil: begun,
    }),
  )
  return cases.reduce<CaseFile | undefined>(addToContract, undefined)!
}

describe("a case's setup", () => {
  it('records the fixtures once per case as its setup, the test’s own calls as its steps', async () => {
    const file = await recordTwoTests()
    expect(file.version).toBe(2)
    const [eggs, milk] = file.cases
    expect(milk!.setup!.map((s) => ('call' in s ? s.call : Object.keys(s)[0]))).toEqual([
      'auth.create',
      'keyv.set',
      'keyv.set',
    ])
    expect(milk!.steps.map((s) => ('call' in s ? [s.call, s.token] : s))).toEqual([
      ['keyv.get', '$auth1'],
    ])
    expect(eggs!.setup).toEqual(milk!.setup)
    expect(eggs!.steps.map((s) => ('call' in s ? s.call : s))).toEqual(['keyv.set', 'keyv.get'])
    // Written, read back: setup first, then the case's own steps, numbered together.
    const cases = parseCaseFile('fixtures.json', formatContract(file))
    expect(cases.map((c) => [c.setup, c.steps.length])).toEqual([
      [3, 5],
      [3, 4],
    ])
  })

  it('verifies every case alone, and in either order, on an account of its own', async () => {
    const cases = parseCaseFile('fixtures.json', formatContract(await recordTwoTests()))
    const target = handleTarget({ serviceName: 'service' })
    const alone = []
    for (const one of [...cases, ...[...cases].reverse()]) {
      alone.push(...(await verifyContracts(target, [one])))
    }
    expect(alone.map((r) => [r.id, r.status, r.reason ?? ''])).toEqual(
      [...cases, ...[...cases].reverse()].map((c) => [c.id, 'passed', '']),
    )
    // Without its setup, the same case fails where it reads what the fixture wrote.
    const bare = cases.map((c) => ({ ...c, steps: c.steps.slice(c.setup), setup: 0 }))
    const [failed] = await verifyContracts(target, [bare[1]!])
    expect(failed!.status).toBe('failed')
  })

  it('says so when the fixtures made calls but the test none that can be replayed', async () => {
    const h = await createHarness({ serviceName: 'service', exchangeLog: 50 })
    await h.tuples('keyv.set', set('a', 1))
    const { exchanges, last } = await journal(h)
    expect(() =>
      recordContract(exchanges, {
        name: 'idle',
        serviceName: 'service',
        baseUrl: h.baseUrl,
        setupUntil: last,
      }),
    ).toThrow(RecordError)
  })
})

describe('the case format’s version and a bad setup', () => {
  const call = { call: 'core.ping', expect: { status: 200 } }
  const file = (data: object) => JSON.stringify({ description: 'd', ...data })

  it('reads a file without a version, as it always has', () => {
    expect(parseCaseFile('old.json', file({ cases: [{ name: 'a', steps: [call] }] }))).toHaveLength(
      1,
    )
  })

  it('refuses a setup in a file that does not say version 2, naming the case', () => {
    expect(() =>
      readCaseFile('old.json', file({ cases: [{ name: 'pings', setup: [call], steps: [call] }] })),
    ).toThrow(
      'old.json: case "pings" has a setup, which version 2 of the case format brought: add "version": 2 to the file',
    )
  })

  it('refuses a version newer than the reader, saying to update', () => {
    expect(() => readCaseFile('new.json', file({ version: 3, cases: [] }))).toThrow(
      /new\.json: version 3 of the case format is newer than this reader, which reads versions 1 to 2/,
    )
  })

  it('names the case and the setup’s field where the schema refuses it', () => {
    const bad = { call: 'core.ping', expect: { status: 'ok' } }
    expect(() =>
      readCaseFile(
        'bad.json',
        file({ version: 2, cases: [{ name: 'pings', setup: [bad], steps: [call] }] }),
      ),
    ).toThrow(/^bad\.json: \/cases\/0\/setup\/0 \(case "pings", in its setup\) /)
  })

  it('refuses a setup that uses a role only its case binds', () => {
    const uses = { call: 'keyv.get', token: '$auth1', expect: { status: 200 } }
    const binds = { mint: 'auth1', from: 'secret', abilities: ['keyv'] }
    expect(() =>
      readCaseFile(
        'bad.json',
        file({ version: 2, cases: [{ name: 'reads', setup: [uses], steps: [binds] }] }),
      ),
    ).toThrow(
      `bad.json: /cases/0/setup/0 (keyv.get) (case "reads", in its setup) uses $auth1, which no earlier step of its setup binds: a setup runs before the case's steps`,
    )
  })
})
