import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../../testing/engine-harness'
import type { ExchangeRecord } from '../../operator/exchange-log'
import type { Json } from '../../store'
import { InvalidError } from '../../errors'
import { coverageReport, readCoverageRequest, tallyCoverage, type CoverageReport } from '.'

let h: Harness

beforeEach(async () => {
  h = await createHarness({ exchangeLog: 100 })
})

async function journal(): Promise<ExchangeRecord[]> {
  return ((await h.control('exchanges')).body as { exchanges: ExchangeRecord[] }).exchanges
}

async function coverage(body: unknown) {
  return (await h.control('coverage', body)) as { status: number; body: unknown }
}

/** A few calls that refuse, let in and mint. */
async function exercise() {
  const token = await h.authorize({ abilities: ['keyv.get?bucket=users', 'core.ping'], ttl: 60 })
  await h.call('keyv.get', { token, body: 'alice', query: { bucket: 'users' } })
  await h.call('keyv.get', { token, body: 'alice', query: { bucket: 'admin' } })
  await h.call('type.string.reverse', { token, body: 'x' })
  await h.call('core.ping', { token })
  await h.call('core.ping', { token: null })
  return token
}

describe('POST /_account/coverage', () => {
  it("reports the account's journal when given no entries, as the CLI's tally of it does", async () => {
    const token = await exercise()
    const entries = await journal()
    const { status, body } = await coverage({})
    expect(status).toBe(200)
    expect(body).toEqual(coverageReport(tallyCoverage(entries)))
    const report = body as CoverageReport
    expect(report.entries).toBe(6)
    expect(report.endpoints.find((e) => e.endpoint === 'keyv.get')?.outcomes).toEqual({
      allowed: 1,
      outside_limit: 1,
    })
    expect(JSON.stringify(report)).not.toContain(token)
    expect(JSON.stringify(report)).not.toContain(h.secret.key)
  })

  it('reads the entries it is given, and adds parts sent one after the other', async () => {
    await exercise()
    const entries = await journal()
    const whole = (await coverage({ entries })).body as CoverageReport
    expect(whole).toEqual(coverageReport(tallyCoverage(entries)))
    // In two parts, the second added to the first's tally (a report is a tally too).
    const first = (await coverage({ entries: entries.slice(0, 2) })).body as CoverageReport
    const second = await coverage({ entries: entries.slice(2), tally: first })
    expect(second.status).toBe(200)
    expect(second.body).toEqual(whole)
    // What the page sends: only what the tally reads.
    const slim = entries.map(({ request, response, trace }) => ({
      request: { url: request.url, headers: request.headers, body: request.body },
      response: { status: response.status },
      trace,
    }))
    expect((await coverage({ entries: slim })).body).toEqual(whole)
    // None at all: an empty report, not the journal.
    expect(((await coverage({ entries: [] })).body as CoverageReport).entries).toBe(0)
  })

  it('answers a body it cannot count with a 400 naming the field, never a fault', async () => {
    await exercise()
    const [one] = await journal()
    const cases: Array<[unknown, RegExp]> = [
      [{ entries: 'all' }, /`entries' must be an array/],
      [{ entries: [1] }, /`entries\[0\]' must be an object/],
      [
        { entries: [{ ...one, trace: { ...one!.trace, calls: null } }] },
        /entries\[0\]\.trace\.calls/,
      ],
      [
        { entries: [{ ...one, request: { ...one!.request, headers: [['a']] } }] },
        /entries\[0\]\.request\.headers\[0\]/,
      ],
      [
        { entries: [{ ...one, trace: { ...one!.trace, credential: { kind: 'root' } } }] },
        /trace\.credential\.kind/,
      ],
      [{ tally: { format: 'other' } }, /`tally' must be a coverage tally/],
      [
        {
          tally: {
            format: 'service-playground-coverage',
            version: 1,
            entries: 1,
            cells: [
              {
                endpoint: 'x',
                credential: 'secret',
                outcome: 'allowed',
                count: -1,
                dimensions: {},
              },
            ],
            abilities: [],
            mintedWith: { expiry: 0, insecure: 0 },
          },
        },
        /tally\.cells\[0\]\.count/,
      ],
    ]
    for (const [body, message] of cases) {
      const answer = await coverage(body)
      expect(answer.status, JSON.stringify(body).slice(0, 200)).toBe(400)
      expect((answer.body as { error: { message: string } }).error.message).toMatch(message)
    }
  })

  it('leaves out, and counts, the entries it cannot read when asked to', async () => {
    await exercise()
    const entries = await journal()
    const broken = [{ ...entries[0]!, trace: 'gone' }, 7, ...entries]
    expect((await coverage({ entries: broken })).status).toBe(400)
    const answer = await coverage({ entries: broken, skipUnreadable: true })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({ ...coverageReport(tallyCoverage(entries)), skipped: 2 })
    expect((await coverage({ entries, skipUnreadable: 'yes' })).status).toBe(400)
    // Without it, a report has no such field.
    expect((await coverage({ entries })).body).not.toHaveProperty('skipped')
  })

  it('answers 200 or 400 whatever value replaces any field of an entry', async () => {
    await exercise()
    const [one] = await journal()
    const others: Json[] = [null, 0, -1, 1.5, '', 'x', true, [], {}, [['a', 'b']]]
    const paths: string[][] = []
    const walk = (value: unknown, path: string[]) => {
      paths.push(path)
      if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) walk(inner, [...path, key])
      }
    }
    walk(one, [])
    const replaced = (value: unknown, path: string[], by: Json): unknown => {
      if (path.length === 0) return by
      const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
        string,
        unknown
      >
      copy[path[0]!] = replaced(copy[path[0]!], path.slice(1), by)
      return copy
    }
    // What the route runs, in this process (a thousand bodies): read, tallied, reported; the
    // only error it may meet is the 400 the reading throws.
    let refused = 0
    for (const path of paths) {
      for (const by of others) {
        try {
          const { entries, tally } = readCoverageRequest({
            entries: [replaced(one, path, by)] as Json[],
          })
          coverageReport(tallyCoverage(entries!, ...(tally ? [tally] : [])))
        } catch (error) {
          expect(error, `${path.join('.')} = ${JSON.stringify(by)}`).toBeInstanceOf(InvalidError)
          refused++
        }
      }
    }
    expect(refused).toBeGreaterThan(0)
    // And one of them over the wire.
    expect((await coverage({ entries: [replaced(one, ['trace'], 1)] })).status).toBe(400)
  })

  it('takes a body past the endpoints’ size limit, up to its own', async () => {
    await exercise()
    const entries = await journal()
    const many = Array.from({ length: 400 }, () => entries).flat()
    const body = { entries: many }
    expect(JSON.stringify(body).length).toBeGreaterThan(131_072)
    const answer = await coverage(body)
    expect(answer.status).toBe(200)
    expect((answer.body as CoverageReport).entries).toBe(400 * entries.length)
  })
})
