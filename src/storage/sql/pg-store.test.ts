import pg from 'pg'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { ServiceError } from '../../engine/errors'
import { StoreConflictError, type Mutation, type Store } from '../../engine/store'
import { describeStoreContract } from '../../testing/store-contract/index'
import { fill, secret, setKeys } from '../../testing/store-contract/fixtures'
import { createDatabase } from '../../testing/postgres'
import { createEngine, createManualClock } from '../../engine'
import { USAGE, usageOf } from '../../engine/account/usage'
import { openPgStore } from './pg-store'
import { SCHEMA_VERSION } from './pg-schema'

const cluster = inject('postgres')
const url = await createDatabase(cluster)
const admin = new pg.Client(url)
await admin.connect()

let schemas = 0
const opened: Store[] = []
/** A store over the test file's database, in a schema of its own unless one is named. */
async function open(schema = `store_${++schemas}`, at = url): Promise<Store> {
  const store = await openPgStore(at, { schema })
  opened.push(store)
  return store
}

afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()))
  await admin.end()
})

describeStoreContract('openPgStore', () => openPgStore(url, { schema: `contract_${++schemas}` }))

const utf16 = (text: string) => Buffer.from(text, 'utf16le').swap16()

/** Resolves once a backend of the stores waits on a lock: the commit is held there. */
async function waitingOnALock(): Promise<void> {
  for (;;) {
    const { rows } = await admin.query(
      `SELECT 1 FROM pg_stat_activity
       WHERE application_name = 'service-playground' AND wait_event_type = 'Lock'`,
    )
    if (rows.length > 0) return
    await new Promise((resolve) => setImmediate(resolve))
  }
}

describe('openPgStore', () => {
  it('keeps everything across closing and opening again', async () => {
    const first = await openPgStore(url, { schema: 'reopened' })
    await fill(first)
    const saved = await first.snapshot()
    await first.close()
    const second = await open('reopened')
    expect(await second.snapshot()).toStrictEqual(saved)
  })

  it('keeps its tables in a schema of their own, with the schema version', async () => {
    await open('versioned')
    const { rows } = await admin.query('SELECT version FROM versioned.schema_version')
    expect(rows).toEqual([{ version: SCHEMA_VERSION }])
    const tables = await admin.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'versioned' ORDER BY 1`,
    )
    expect(tables.rows.map((row: { table_name: string }) => row.table_name)).toEqual([
      'accounts',
      'faults',
      'journal',
      'keyv',
      'meta',
      'operator',
      'procs',
      'schema_version',
      'secrets',
      'strict_report',
    ])
  })

  it('brings tables of an older version up to date, keeping what they hold', async () => {
    const first = await open('older')
    await first.commit(setKeys('b', ['kept']))
    // As the first release left them: no operator's controls, no hosted accounts.
    await admin.query(
      `DROP TABLE older.operator, older.faults, older.strict_report, older.journal, older.accounts;
       UPDATE older.schema_version SET version = 1`,
    )
    const second = await open('older')
    expect(await second.getKey('b', 'kept')).toBe('kept')
    const { rows } = await admin.query('SELECT version FROM older.schema_version')
    expect(rows).toEqual([{ version: SCHEMA_VERSION }])
    expect((await admin.query('SELECT count(*)::int AS n FROM older.operator')).rows).toEqual([
      { n: 0 },
    ])
  })

  it('refuses tables of a newer schema version, and leaves them alone', async () => {
    const store = await open('newer')
    await store.commit(setKeys('b', ['kept']))
    await admin.query('UPDATE newer.schema_version SET version = $1', [SCHEMA_VERSION + 1])
    const refused = openPgStore(url, { schema: 'newer' })
    await expect(refused).rejects.toThrow(
      `holds service-playground tables of schema version ${SCHEMA_VERSION + 1}, newer than this release reads (${SCHEMA_VERSION}): upgrade service-playground`,
    )
    expect(await store.getKey('b', 'kept')).toBe('kept')
  })

  it('refuses a schema name it would have to quote', async () => {
    await expect(openPgStore(url, { schema: 'Bad-Name' })).rejects.toThrow(
      'the PostgreSQL schema name "Bad-Name" must be 1 to 63 characters of a-z, 0-9 and _',
    )
  })

  it('creates its tables once when several stores open at the same moment', async () => {
    const stores = await Promise.all(Array.from({ length: 4 }, () => open('together')))
    await stores[0]!.commit(setKeys('b', ['one']))
    for (const store of stores) expect(await store.getKey('b', 'one')).toBe('one')
  })

  it('refuses a URL that does not parse, saying what to give', async () => {
    await expect(openPgStore('postgres://[nope')).rejects.toThrow(
      'the PostgreSQL URL does not parse: give --data postgres://user:password@host:port/database',
    )
  })

  it('says which database it cannot open, and why', async () => {
    const missing = url.replace(/\/[^/]+$/, '/no_such_database')
    await expect(openPgStore(missing)).rejects.toThrow(
      `cannot open PostgreSQL database postgres@${cluster.host}:${cluster.port}/no_such_database: database "no_such_database" does not exist`,
    )
  })
})

describe('openPgStore, two stores over one database (as two processes)', () => {
  it('reads what the other wrote, every acknowledged write of both', async () => {
    const [a, b] = [await open('shared'), await open('shared')]
    const writes = (store: Store, name: string) =>
      Array.from({ length: 150 }, (_, i) =>
        store.commit([
          { op: 'setKey', bucket: 'w', key: `${name}-${String(i).padStart(3, '0')}`, value: i },
          { op: 'setKey', bucket: 'w', key: 'both', value: `${name}-${i}` },
        ]),
      )
    await Promise.all([...writes(a!, 'a'), ...writes(b!, 'b')])
    const keys = await b!.scanKeys('w', { prefix: '', limit: 1000 })
    expect(keys).toHaveLength(301)
    expect(await a!.getKey('w', 'a-149')).toBe(149)
    expect(await a!.getKey('w', 'b-000')).toBe(0)
    expect(['a-149', 'b-149']).toContain(await b!.getKey('w', 'both'))
  })

  it('lets exactly one of two racing rolls through, every time', async () => {
    const [a, b] = [await open('rolls'), await open('rolls')]
    for (let round = 0; round < 20; round++) {
      const id = `s${round}`
      await a!.commit([{ op: 'putSecret', secret: secret(id, 1) }])
      const roll = (store: Store, to: string): Promise<void> =>
        store.commit([
          { op: 'expectSecret', id, rolledTo: null, expiresAt: null },
          { op: 'putSecret', secret: secret(`${id}-${to}`, 2) },
          { op: 'putSecret', secret: secret(id, 1, { rolledTo: `${id}-${to}`, expiresAt: 2 }) },
        ])
      const results = await Promise.allSettled([roll(a!, 'a'), roll(b!, 'b')])
      const won = results.filter((result) => result.status === 'fulfilled')
      const lost = results.flatMap((result) => (result.status === 'rejected' ? [result] : []))
      expect(won).toHaveLength(1)
      expect(lost).toHaveLength(1)
      expect(lost[0]!.reason).toBeInstanceOf(StoreConflictError)
      const winner = results[0]!.status === 'fulfilled' ? 'a' : 'b'
      const loser = winner === 'a' ? 'b' : 'a'
      expect((await b!.getSecret(id))?.rolledTo).toBe(`${id}-${winner}`)
      expect(await a!.getSecret(`${id}-${loser}`)).toBeUndefined()
    }
  })

  it('holds a commit that expects a secret while another transaction has it locked', async () => {
    const store = await open('locks')
    await store.commit([{ op: 'putSecret', secret: secret('s', 1) }])
    const expecting: Mutation[] = [
      { op: 'expectSecret', id: 's', rolledTo: null, expiresAt: null },
      { op: 'setKey', bucket: 'b', key: 'k', value: 'written' },
    ]

    // The other transaction changes the secret: the held commit then fails, writing nothing.
    await admin.query('BEGIN')
    await admin.query('SELECT 1 FROM locks.secrets WHERE id = $1 FOR UPDATE', [utf16('s')])
    const held = store.commit(expecting)
    await waitingOnALock()
    await admin.query('UPDATE locks.secrets SET record = $1 WHERE id = $2', [
      JSON.stringify(secret('s', 1, { rolledTo: 't', expiresAt: 5 })),
      utf16('s'),
    ])
    await admin.query('COMMIT')
    await expect(held).rejects.toBeInstanceOf(StoreConflictError)
    expect(await store.getKey('b', 'k')).toBeUndefined()

    // The other transaction leaves it as it was: the held commit then goes through.
    await store.commit([{ op: 'putSecret', secret: secret('s', 1) }])
    await admin.query('BEGIN')
    await admin.query('SELECT 1 FROM locks.secrets WHERE id = $1 FOR UPDATE', [utf16('s')])
    const released = store.commit(expecting)
    await waitingOnALock()
    await admin.query('ROLLBACK')
    await released
    expect(await store.getKey('b', 'k')).toBe('written')
  })

  it('gives up with a 503 on a lock held longer than its statements may wait', async () => {
    await open('held')
    const store = await openPgStore(url, { schema: 'held', statementTimeout: 200 })
    opened.push(store)
    await store.commit([{ op: 'putSecret', secret: secret('s', 1) }])
    await admin.query('BEGIN')
    await admin.query('SELECT 1 FROM held.secrets WHERE id = $1 FOR UPDATE', [utf16('s')])
    const held = store.commit([
      { op: 'expectSecret', id: 's', rolledTo: null, expiresAt: null },
      { op: 'setKey', bucket: 'b', key: 'k', value: 'written' },
    ])
    await expect(held).rejects.toMatchObject({ status: 503, code: 'unavailable' })
    await admin.query('ROLLBACK')
    expect(await store.getKey('b', 'k')).toBeUndefined()
  })

  it('keeps one secret per key: of two racing creations with one key, one fails', async () => {
    const [a, b] = [await open('keys'), await open('keys')]
    const create = (store: Store, id: string) =>
      store.commit([{ op: 'putSecret', secret: { ...secret(id, 1), key: 'the-same-key' } }])
    const results = await Promise.allSettled([create(a!, 'x'), create(b!, 'y')])
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    const [lost] = results.flatMap((result) => (result.status === 'rejected' ? [result] : []))
    expect(lost!.reason).toBeInstanceOf(StoreConflictError)
    expect(String(lost!.reason)).toMatch(/another secret already has the key of secret [xy]/)
    expect((await a!.listSecrets()).map((s) => s.key)).toEqual(['the-same-key'])
  })
})

describe('openPgStore, counting through two stores over one database (as two processes)', () => {
  it('applies every update to what the other left: none reads a count another is changing', async () => {
    const [a, b] = [await open('updates'), await open('updates')]
    const increment = (store: Store) =>
      store.update!(async (reader) => {
        const count = ((await reader.getMeta('count')) as number | undefined) ?? 0
        return [{ op: 'putMeta', key: 'count', value: count + 1 }]
      })
    await Promise.all(Array.from({ length: 60 }, (_, i) => increment(i % 2 === 0 ? a! : b!)))
    expect(await a!.getMeta('count')).toBe(60)
  })

  it('keeps the usage exact under writes through both to the same keys and to others', async () => {
    const engines = [await open('usage'), await open('usage')].map((store) =>
      createEngine({ store, clock: createManualClock(), secrets: ['usage-secret-key'] }),
    )
    await Promise.all(engines.map((engine) => engine.start()))
    const set = (engine: (typeof engines)[number], key: string, value: string) =>
      engine.handle(
        new Request(`${engine.settings.baseUrl}/keyv/set?bucket=b&key=${key}&value=${value}`, {
          method: 'POST',
          headers: { authorization: 'bearer usage-secret-key' },
        }),
      )
    const answers = await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        set(engines[i % 2]!, i % 4 === 0 ? 'same' : `k${i}`, 'x'.repeat(i)),
      ),
    )
    expect(answers.map(({ status }) => status)).toEqual(answers.map(() => 200))
    const store = engines[0]!.settings.store
    expect(await store.getMeta(USAGE)).toBe(usageOf(await store.snapshot()))
  })
})

describe('engines starting at once over one database', () => {
  it('give the account each starting secret once, however the starts interleave', async () => {
    for (let round = 0; round < 10; round++) {
      const schema = `starts_${round}`
      const keys = ['first-secret-key', 'second-secret-key']
      const engines = await Promise.all(
        [1, 2, 3].map(async () => createEngine({ store: await open(schema), secrets: keys })),
      )
      await Promise.all(engines.map((engine) => engine.start()))
      const made = (await engines[0]!.account.listSecrets()).map(({ key }) => key).sort()
      expect(made, `round ${round}`).toEqual(keys)
    }
  })
})

describe('openPgStore, importing', () => {
  it('refuses with a 400 a snapshot whose secrets share a key, changing nothing', async () => {
    const { account } = createEngine({ store: await open('imports') })
    await account.createSecret({ key: 'kept-secret-key' })
    const exported = await account.exportSnapshot()
    const twice = [secret('sec_a', 1), secret('sec_b', 2)].map((s) => ({
      ...s,
      key: 'shared-key-123',
    }))
    const imported = account.importSnapshot({ ...exported, secrets: twice })
    await expect(imported).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(
        /^invalid snapshot: secrets\[1\]\.key.* is also the key of secrets\[0\]/,
      ),
    })
    expect((await account.listSecrets()).map(({ key }) => key)).toEqual(['kept-secret-key'])
  })
})

describe('openPgStore when the database goes away', () => {
  it('answers 503 while it accepts no connections, and recovers once it does', async () => {
    const other = await createDatabase(cluster, 'away')
    const database = other.slice(other.lastIndexOf('/') + 1)
    const store = await open('away', other)
    await store.commit(setKeys('b', ['k']))

    await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`)
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [
      database,
    ])
    const errors = await Promise.all(
      [
        store.getKey('b', 'k'),
        store.scanKeys('b', { prefix: '', limit: 10 }),
        store.commit(setKeys('b', ['lost'])),
        store.snapshot(),
      ].map((call: Promise<unknown>) =>
        call.then(
          () => new Error('answered'),
          (error: unknown) => error,
        ),
      ),
    )
    for (const error of errors) {
      expect(error).toBeInstanceOf(ServiceError)
      expect(error).toMatchObject({ status: 503, code: 'unavailable' })
      expect((error as Error).message).toMatch(
        /^the service's database is unavailable \(.+\); try again shortly$/,
      )
    }

    await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`)
    expect(await store.getKey('b', 'k')).toBe('k')
    await store.commit(setKeys('b', ['after']))
    expect(await store.scanKeys('b', { prefix: '', limit: 10 })).toEqual(['after', 'k'])
  })
})
