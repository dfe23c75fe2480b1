import { afterAll, describe, expect, inject, it } from 'vitest'
import { readFaultRule } from '../../engine/operator/read-fault-rule'
import type { OperatorModes, OperatorState } from '../../engine/operator/state'
import { defaultLimits } from '../../engine/settings'
import { createDatabase } from '../../testing/postgres'
import { openPgDatabase, type PgDatabase } from './pg-connection'
import { openPgOperator } from './pg-operator'
import { migrate } from './pg-schema'
import { createPgStore } from './pg-store'

/** Two handles on one database, as two processes have: each its own pool. */
const url = await createDatabase(inject('postgres'))
const handles: PgDatabase[] = await Promise.all(
  [1, 2].map(() => openPgDatabase(url, { connections: 5 })),
)
afterAll(() => Promise.all(handles.map((db) => db.end())))

const modes: OperatorModes = {
  strict: false,
  journal: 5,
  rateLimit: { ...defaultLimits.rateLimit },
}

let schemas = 0
/** The operator's controls of one new account, as each of the two processes opens them. */
async function twice(given = modes): Promise<[OperatorState, OperatorState]> {
  const schema = `operator_${++schemas}`
  await handles[0]!.connect((client) => migrate(client, schema, 'the test database', 'hosted'))
  const [a, b] = await Promise.all(handles.map((db) => openPgOperator(db, schema, given)))
  return [a!, b!]
}

const record = (url: string) => ({
  startedAt: 0,
  at: 0,
  durationMs: 0,
  request: { method: 'POST', url, headers: [], body: null },
  response: { status: 200, headers: [], body: null },
  trace: {
    endpoint: null,
    credential: null,
    calls: [],
    droppedCalls: 0,
    outcome: { status: 200, code: null, message: null },
  },
})

describe('the operator controls of one account in PostgreSQL, through two processes', () => {
  it('lets each call of a counted fault be taken by exactly one request', async () => {
    const [a, b] = await twice()
    const added = await a.faults.add(readFaultRule({ status: 503, count: 20 }))
    expect((await b.view()).faulted).toBe(true)
    const taken = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 === 0 ? a : b).faults.take('core.ping', null, 'none'),
      ),
    )
    const met = taken.filter((rule) => rule !== undefined)
    expect(met).toHaveLength(20)
    expect(new Set(met.map((rule) => rule.count))).toEqual(
      new Set(Array.from({ length: 20 }, (_, i) => i)),
    )
    expect(met.every((rule) => rule.id === added.id)).toBe(true)
    expect([await a.faults.list(), (await b.view()).faulted]).toEqual([[], false])
  })

  it('meets the first matching rule first, and a rule for every call until it is removed', async () => {
    const [a, b] = await twice()
    const always = await a.faults.add(readFaultRule({ status: 500, count: null, token: 't' }))
    await a.faults.add(readFaultRule({ status: 429, endpoint: 'keyv' }))
    expect(await b.faults.take('keyv.get', 'other', 'unknown')).toMatchObject({
      status: 429,
      count: 0,
    })
    expect(await b.faults.take('keyv.get', 'other', 'unknown')).toBeUndefined()
    for (let i = 0; i < 3; i++) {
      expect(await b.faults.take('core.ping', 't', 'unknown')).toMatchObject({
        status: 500,
        count: null,
      })
    }
    expect(await b.faults.remove(always.id)).toBe(true)
    expect(await a.faults.remove(always.id)).toBe(false)
    expect(await a.faults.take('core.ping', 't', 'unknown')).toBeUndefined()
  })

  it('keeps one journal, its ids in the order kept, the newest as many as it holds', async () => {
    const [a, b] = await twice()
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).journal.add(record(`/${i}`))),
    )
    const kept = await b.journal.list()
    expect(kept.map(({ id }) => id)).toEqual([12, 11, 10, 9, 8])
    expect((await a.journal.list(10)).map(({ id }) => id)).toEqual([12, 11])
    await b.journal.setCapacity(2)
    expect((await a.journal.list()).map(({ id }) => id)).toEqual([12, 11])
    await a.journal.setCapacity(0)
    await b.journal.add(record('/off'))
    expect(await a.journal.list()).toEqual([])
    expect((await b.view()).journal).toBe(0)
  })

  it('counts one rate window, and one strict mode with its report', async () => {
    const [a, b] = await twice()
    const counted = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).rate.count(100, 60)),
    )
    expect(counted.map(({ count }) => count).sort((x, y) => x - y)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ])
    expect((await b.view()).window).toEqual({ start: 100, count: 10 })
    expect(await a.rate.count(160, 60)).toEqual({ start: 160, count: 1 })

    await a.strict.set(true)
    await b.strict.record({ method: 'POST', url: '/x', at: 1, deviations: ['d'] })
    expect(await a.strict.report()).toEqual([
      { method: 'POST', url: '/x', at: 1, deviations: ['d'] },
    ])
    expect((await b.view()).strict).toBe(true)
  })

  it('resets everything at once, for both', async () => {
    const [a, b] = await twice()
    await a.faults.add(readFaultRule({ status: 503, count: null }))
    await a.strict.set(true)
    await a.journal.add(record('/before'))
    await a.rate.set({ limit: 1, windowSeconds: 1, enforce: true })
    await a.rate.count(5, 60)
    await b.reset({ strict: false, rateLimit: modes.rateLimit })
    expect(await a.view()).toEqual({
      ...modes,
      window: { start: Number.NEGATIVE_INFINITY, count: 0 },
      faulted: false,
      // The account's store holds no clock offset: real time.
      clockOffset: null,
    })
    expect([await a.faults.list(), await a.journal.list(), await a.strict.report()]).toEqual([
      [],
      [],
      [],
    ])
    // Ids go on from where they were.
    await b.journal.add(record('/after'))
    expect((await a.journal.list()).map(({ id }) => id)).toEqual([2])
  })

  it("reads the account's clock offset as its store holds it, in the same statement", async () => {
    const schema = `operator_${++schemas}`
    await handles[0]!.connect((client) => migrate(client, schema, 'the test database', 'hosted'))
    const operator = await openPgOperator(handles[1]!, schema, modes)
    expect((await operator.view()).clockOffset).toBeNull()
    const store = createPgStore(handles[0]!, schema)
    await store.commit([{ op: 'putMeta', key: 'clockOffset', value: 3_600_000 }])
    expect((await operator.view()).clockOffset).toBe(3_600_000)
    await store.close()
  })

  it('takes the modes it is opened with when it has none, and sets them when told to', async () => {
    const schema = `operator_${++schemas}`
    const [first, second] = handles as [PgDatabase, PgDatabase]
    await first.connect((client) => migrate(client, schema, 'the test database', 'hosted'))
    const strict = { ...modes, strict: true }
    const a = await openPgOperator(first, schema, strict)
    const b = await openPgOperator(second, schema, modes)
    expect((await b.view()).strict).toBe(true)
    await openPgOperator(second, schema, { ...modes, journal: 1 }, { apply: true })
    expect(await a.view()).toMatchObject({ strict: false, journal: 1 })
  })
})
