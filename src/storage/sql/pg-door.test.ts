import type { PoolClient } from 'pg'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { createEngine } from '../../engine'
import { readFaultRule } from '../../engine/operator/read-fault-rule'
import { defaultLimits } from '../../engine/settings'
import { listen } from '../../server/http'
import { createDatabase } from '../../testing/postgres'
import { pgShelf } from './pg-accounts'
import { openPgDatabase, type PgDatabase } from './pg-connection'
import { openPgOperator } from './pg-operator'
import { migrate } from './pg-schema'
import { createPgStore, MAIN_SCHEMA } from './pg-store'

/** What one request asks of PostgreSQL, counted statement by statement. */

const CONTROL = 'pg-door-control-token-0123'
const db = await openPgDatabase(await createDatabase(inject('postgres'), 'door'), {
  connections: 4,
})
afterAll(() => db.end())

/** The text of every statement sent through `db`, whichever way it went. */
const sent: string[] = []
const textOf = (statement: unknown) =>
  typeof statement === 'string' ? statement : String((statement as { text?: unknown }).text)
const countedClient = (client: PoolClient): PoolClient =>
  new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'query') return Reflect.get(target, property, receiver) as unknown
      return (statement: unknown, ...rest: unknown[]) => {
        sent.push(textOf(statement))
        return (target.query as (...args: unknown[]) => unknown)(statement, ...rest)
      }
    },
  })
const counted: PgDatabase = {
  ...db,
  query: (statement, values) => (sent.push(textOf(statement)), db.query(statement, values)),
  transact: (body, begin) => db.transact((client) => body(countedClient(client)), begin),
  connect: (body) => db.connect((client) => body(countedClient(client))),
}

/** Statements that read the operator's state of an account: its modes, window and faults. */
const operatorReads = () =>
  sent.filter((text) => /^\s*SELECT strict, journal, rate_limit/.test(text))
const accountFinds = () => sent.filter((text) => /FROM \S+\.accounts WHERE id = \$1/.test(text))

const modes = { strict: true, journal: 100, rateLimit: { ...defaultLimits.rateLimit } }

describe('one request over PostgreSQL', () => {
  it('reads the operator’s state in one statement, with strict mode, the journal and a fault on', async () => {
    await db.connect((client) => migrate(client, MAIN_SCHEMA, db.where))
    const engine = createEngine({
      store: createPgStore(counted, MAIN_SCHEMA),
      operator: await openPgOperator(counted, MAIN_SCHEMA, modes, { apply: true }),
      baseUrl: 'http://127.0.0.1',
      strict: true,
      exchangeLog: 100,
    })
    const [secret] = await engine.start()
    await engine.operator.faults.add(readFaultRule({ kind: 'delay', delayMs: 1, count: null }))
    const server = await listen(engine, { port: 0, controlToken: CONTROL })
    try {
      sent.length = 0
      for (let i = 0; i < 5; i++) {
        const response = await fetch(`${server.url}/core/ping`, {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'text/plain' },
        })
        expect([response.status, response.headers.get('x-fault')]).toEqual([200, 'delay'])
      }
      expect(operatorReads()).toHaveLength(5)
      const journal = (await engine.operator.journal.list()).map((r) => r.trace.endpoint)
      expect(journal).toEqual(Array(5).fill('core.ping'))
      expect(await engine.operator.strict.report()).toHaveLength(5)
    } finally {
      await server.close()
    }
  })

  it('finds a hosted account once, and reads its operator’s state once', async () => {
    const main = createEngine({
      store: createPgStore(counted, MAIN_SCHEMA),
      operator: await openPgOperator(counted, MAIN_SCHEMA, modes),
      baseUrl: 'http://127.0.0.1',
    })
    await main.start()
    const server = await listen(main, {
      port: 0,
      controlToken: CONTROL,
      accounts: { shelf: pgShelf(counted, MAIN_SCHEMA, modes), engine: { exchangeLog: 100 } },
    })
    try {
      const made = await fetch(`${server.url}/_accounts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${CONTROL}` },
      })
      const account = (await made.json()) as { baseUrl: string; secret: string }
      sent.length = 0
      for (let i = 0; i < 5; i++) {
        const response = await fetch(`${account.baseUrl}/core/ping`, {
          method: 'POST',
          headers: { authorization: `Bearer ${account.secret}`, 'content-type': 'text/plain' },
        })
        expect(await response.text()).toBe('true')
      }
      expect(accountFinds()).toHaveLength(5)
      expect(operatorReads()).toHaveLength(5)
    } finally {
      await server.close()
    }
  })
})
