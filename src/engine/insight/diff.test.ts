import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'
import type { DiffItem, DiffReport } from './types'

let h: Harness

beforeEach(async () => {
  h = await createHarness()
})

async function diff(a: string, b: string): Promise<DiffReport> {
  const response = await h.control('diff', { a, b })
  expect(response.status).toBe(200)
  return response.body as DiffReport
}

/** Makes the counterexample for real, with each token. */
async function realStatus(item: DiffItem, token: string): Promise<number> {
  const { endpoint, input, args } = item.counterexample
  const body = [
    ...(input === undefined ? [] : [['>>', input]]),
    ...Object.entries(args ?? {}).map(([name, value]) => ['$$', name, value]),
  ]
  return (await h.tuples(endpoint, body, { token })).status
}

describe('diff', () => {
  it('says a scan of the whole bucket in words, never an empty prefix', async () => {
    const a = await h.authorize({ abilities: ['keyv.scan?bucket=users&prefix=alice/'] })
    const b = await h.authorize({ abilities: ['keyv.scan?bucket=users'] })
    const sentences = (await diff(a, b)).gained.map((item) => item.sentence)
    expect(sentences).toContain(
      "reaches `keyv.scan' in bucket `users' scanning the whole bucket (no prefix), outside the other's key-value limits",
    )
    for (const sentence of sentences) expect(sentence).not.toMatch(/prefix `'/)
  })

  it('finds what each token reaches that the other does not, each proven by a real call', async () => {
    const a = await h.authorize({
      abilities: ['keyv.get?bucket=users&prefix=alice/', 'type.string'],
    })
    const b = await h.authorize({ abilities: ['keyv.get?bucket=users', 'core.ping'] })
    const report = await diff(a, b)
    expect(report.sameSecret).toBe(true)
    expect(report.gained.map((i) => [i.kind, i.endpoint])).toEqual([
      ['endpoint', 'core.ping'],
      ['limit', 'keyv.get'],
    ])
    expect(report.gained[1]!.where!.bucket).toBe('users')
    expect(report.gained[1]!.where!.key.startsWith('alice/')).toBe(false)
    expect(report.lost.map((i) => i.endpoint)).toEqual(
      expect.arrayContaining(['type.string.reverse', 'type.string.truncate']),
    )
    for (const [items, reaches, refused] of [
      [report.gained, b, a],
      [report.lost, a, b],
    ] as const) {
      for (const item of items) {
        expect(item.proof.refused.decision).toBe('refused')
        expect(await realStatus(item, refused)).toBe(401)
        expect(await realStatus(item, reaches)).not.toBe(401)
      }
    }
  })

  it('finds nothing between a token and itself, and everything when one is a secret', async () => {
    const a = await h.authorize({ abilities: ['keyv?bucket=x', 'core'] })
    expect(await diff(a, a)).toMatchObject({ gained: [], lost: [] })
    const wide = await diff(a, h.secret.key)
    expect(wide.lost).toEqual([])
    expect(wide.gained.length).toBeGreaterThan(10)
    expect(wide.gained.find((i) => i.endpoint === 'keyv.get')).toMatchObject({ kind: 'limit' })
  })

  it('tells when one outlives the other, and when the one refused could mint it', async () => {
    const short = await h.authorize({ abilities: ['core.ping'], ttl: 60 })
    const long = await h.authorize({ abilities: ['core.ping'] })
    const report = await diff(short, long)
    const now = await h.engine.account.now()
    expect(report.gained).toMatchObject([
      { kind: 'time', endpoint: 'core.ping', counterexample: { at: now + 60 }, delegated: false },
    ])
    const minter = await h.authorize({ abilities: ['auth.create'], insecure: true })
    expect((await diff(minter, long)).gained).toMatchObject([
      { endpoint: 'core.ping', delegated: true },
    ])
  })
})
