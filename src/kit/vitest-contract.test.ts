/**
 * Contracts from `useService`: every passing test of the file into one file (the `contract`
 * option), one test on demand (`contract.save`), read from the journal since the test began.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseCaseFile } from '../conformance/cases'
import { TOKEN_SHAPE } from '../conformance/contract/answer'
import { verifyContracts } from '../conformance/contract/verify'
import { handleTarget } from '../conformance/targets'
import { tuplesRequest } from '../testing/tuples'
import { CONTRACT_DIR_VARIABLE } from './contract'
import { useService } from './vitest'

const dir = mkdtempSync(join(tmpdir(), 'kit-contracts-'))
process.env[CONTRACT_DIR_VARIABLE] = dir
afterAll(() => {
  delete process.env[CONTRACT_DIR_VARIABLE]
  rmSync(dir, { recursive: true, force: true })
})

const notes = useService({ baseUrl: 'https://notes.test', contract: 'contracts/every.json' })
const small = useService({ baseUrl: 'https://small.test', journal: 2 })

const call = (base: string, name: string, token: string, tuples: unknown[]) =>
  fetch(tuplesRequest(base, name, token, tuples))

const keep = (token: string, key: string, value: unknown) =>
  call(notes.baseUrl, 'keyv.set', token, [
    ['$$', 'bucket', 'notes'],
    ['$$', 'key', key],
    ['$$', 'value', value],
  ])
const read = (token: string, bucket: string) =>
  call(notes.baseUrl, 'keyv.get', token, [
    ['$$', 'bucket', bucket],
    ['$$', 'key', 'a'],
  ])

const text = (path: string) => readFileSync(join(dir, path), 'utf8')
const FILE = 'src/kit/vitest-contract.test.ts'
const BLOCK = `${FILE} › contracts from useService › a block whose beforeAll writes a fixture`

describe('contracts from useService', () => {
  it('keeps a note with a limited authorization', async () => {
    const token = await notes.authorize(['keyv?bucket=notes'], { ttl: 600 })
    expect((await keep(token, 'a', { text: 'milk' })).status).toBe(200)
    expect((await read(token, 'elsewhere')).status).toBe(401)
  })

  it('saves on demand what this test did so far, and again with what followed', async () => {
    const token = await notes.authorize(['keyv'])
    await keep(token, 'a', 'one')
    const path = await notes.contract.save('contracts/on-demand.json')
    expect(path).toBe(join(dir, 'contracts/on-demand.json'))
    const once = parseCaseFile('on-demand.json', text('contracts/on-demand.json'))
    expect(once.map((c) => [c.id, c.steps.length])).toEqual([
      [
        `on-demand.json › ${FILE} › contracts from useService › saves on demand what this test did so far, and again with what followed`,
        2,
      ],
    ])
    await notes.advanceClock(60)
    expect(await (await read(token, 'notes')).json()).toEqual([['<<', 'one']])
    await notes.contract.save('contracts/on-demand.json')
    const again = parseCaseFile('on-demand.json', text('contracts/on-demand.json'))
    expect(again).toHaveLength(1)
    expect(again[0]!.steps.slice(2)).toMatchObject([{ advance: 60 }, { call: 'keyv.get' }])
  })

  it('makes no request, so the file leaves it out', () => {
    expect(notes.requests()).toEqual([])
  })

  it('refuses a contract the journal no longer holds whole', async () => {
    for (let i = 0; i < 3; i++) {
      await call(small.baseUrl, 'core.ping', small.secret, [])
    }
    await expect(small.contract.save('contracts/small.json')).rejects.toThrow(
      /journal keeps the last 2 requests and no longer holds every request of this test/,
    )
  })

  describe('a block whose beforeAll writes a fixture', () => {
    let token = ''
    beforeAll(async () => {
      token = await notes.authorize(['keyv?bucket=notes'])
      await keep(token, 'a', 'from the fixture')
    })

    it('reads what the fixture wrote', async () => {
      expect(await (await read(token, 'notes')).json()).toEqual([['<<', 'from the fixture']])
    })

    it('writes over it, and reads its own', async () => {
      await keep(token, 'a', 'its own')
      expect(await (await read(token, 'notes')).json()).toEqual([['<<', 'its own']])
    })
  })

  it('wrote every passing test that made requests, by name, without a token, and they verify', async () => {
    const written = text('contracts/every.json')
    expect(written.split(/"/).filter((s) => TOKEN_SHAPE.test(s))).toEqual([])
    expect(written).not.toContain(notes.secret)
    const cases = parseCaseFile('every.json', written)
    expect(cases.map((c) => c.id)).toEqual([
      `every.json › ${BLOCK} › reads what the fixture wrote`,
      `every.json › ${BLOCK} › writes over it, and reads its own`,
      `every.json › ${FILE} › contracts from useService › keeps a note with a limited authorization`,
      `every.json › ${FILE} › contracts from useService › saves on demand what this test did so far, and again with what followed`,
    ])
    // The block's fixture is each of its cases' setup: each case verifies alone, in any order.
    expect(cases.map((c) => c.setup ?? 0)).toEqual([2, 2, 0, 0])
    const target = handleTarget()
    const results = []
    for (const one of [...cases].reverse()) results.push(...(await verifyContracts(target, [one])))
    expect(results.map((r) => [r.status, r.reason])).toEqual(cases.map(() => ['passed', undefined]))
  })
})
