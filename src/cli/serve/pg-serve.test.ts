import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { createDatabase, startCluster, type Cluster } from '../../testing/postgres'
import { callTuples as call, crash, listening, serve, stopAll } from '../../testing/serve-process'

/** `serve --data postgres://…`: several real processes over one PostgreSQL database. */

const SECRET = 'shared-secret-0123'
const CONTROL = 'control-token-shared-0123456'
const cluster = inject('postgres')
const clusters: Cluster[] = []

afterAll(async () => {
  await stopAll()
  await Promise.all(clusters.map((own) => own.remove()))
})

type Started = ReturnType<typeof serve> & { url: string; stdout: string[] }

async function start(data: string, ...args: string[]): Promise<Started> {
  const started = serve([
    '--port',
    '0',
    '--secret',
    SECRET,
    '--control-token',
    CONTROL,
    '--data',
    data,
    ...args,
  ])
  const stdout: string[] = []
  createInterface({ input: started.child.stdout! }).on('line', (line) => stdout.push(line))
  return { ...started, stdout, url: await listening(started) }
}

async function control(url: string, path: string, body?: unknown) {
  const response = await fetch(`${url}/_account/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${CONTROL}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, value: (await response.json()) as unknown }
}

interface Secret {
  id: string
  key: string
  state: string
}
const secrets = async (url: string) => (await control(url, 'secrets')).value as Secret[]

const set = (key: string, value: unknown) => [
  ['$$', 'key', key],
  ['$$', 'value', value],
]
const get = (key: string) => [['$$', 'key', key]]

describe('two serve processes over one PostgreSQL database', () => {
  it('act as one service: keys, tokens, rolls and the clock', async () => {
    const data = await createDatabase(cluster)
    // Started together, with the same --secret: the account gets that secret once.
    const [a, b] = await Promise.all([start(data), start(data)])
    expect((await secrets(a.url)).map((secret) => secret.key)).toEqual([SECRET])
    expect(b.stdout).toContain(`secret: ${SECRET}`)
    expect(b.stdout.join('\n')).toContain(
      `data: postgres://postgres@${cluster.host}:${cluster.port}/`,
    )

    // A write through one is read through the other.
    expect((await call(a.url, SECRET, 'keyv.set', set('k', { via: 'a' }))).status).toBe(200)
    expect(await call(b.url, SECRET, 'keyv.get', get('k'))).toEqual({
      status: 200,
      value: { via: 'a' },
    })

    // A token minted by one works on the other, and expires on both when the clock moves.
    const minted = await call(a.url, SECRET, 'auth.create', [
      ['$$', 'abilities', ['keyv.get']],
      ['$$', 'ttl', 60],
    ])
    const token = minted.value as string
    expect(await call(b.url, token, 'keyv.get', get('k'))).toEqual({
      status: 200,
      value: { via: 'a' },
    })
    const before = ((await control(a.url, 'clock')).value as { now: number }).now
    expect((await control(b.url, 'clock', { advance: 120 })).status).toBe(200)
    const after = ((await control(a.url, 'clock')).value as { now: number }).now
    expect(after - before).toBeGreaterThanOrEqual(120)
    expect(await call(a.url, token, 'keyv.get', get('k'))).toEqual({
      status: 401,
      value: { error: { message: 'authorization is expired' } },
    })

    // A roll through one kills the secret, and what descends from it, on the other.
    const other = (await control(b.url, 'secrets', {})).value as Secret
    const child = (await call(a.url, other.key, 'auth.create', [['$$', 'abilities', ['keyv']]]))
      .value as string
    expect((await call(b.url, child, 'keyv.get', get('k'))).status).toBe(200)
    const rolled = await control(a.url, `secrets/${other.id}/roll`, {})
    expect(rolled.status).toBe(200)
    const replacement = rolled.value as Secret
    expect(await call(b.url, other.key, 'keyv.get', get('k'))).toEqual({
      status: 401,
      value: { error: { message: 'authorization is expired' } },
    })
    expect(await call(b.url, child, 'keyv.get', get('k'))).toEqual({
      status: 401,
      value: { error: { message: 'authorization is invalid' } },
    })
    expect((await call(b.url, replacement.key, 'keyv.get', get('k'))).status).toBe(200)

    // Both roll one secret now, at once: one roll makes the replacement. The other, depending
    // on whose request came first by the clock, finds the secret dead (409) or rolling, and
    // then answers with the same replacement: never a second one.
    const third = (await control(a.url, 'secrets', {})).value as Secret
    const rolls = await Promise.all(
      [a, b].map((server) => control(server.url, `secrets/${third.id}/roll`, {})),
    )
    const won = rolls.find(({ status }) => status === 200)!.value as Secret
    for (const roll of rolls) {
      expect([roll.status, roll.value]).toEqual(
        roll.status === 200
          ? [200, expect.objectContaining({ id: won.id, key: won.key })]
          : [409, { error: { message: `secret \`${third.id}' has already expired` } }],
      )
    }
    // Three secrets made, two rolled once each: five, none twice.
    const ids = (await secrets(b.url)).map(({ id }) => id)
    expect(new Set(ids).size).toBe(5)
    expect(ids).toContain(won.id)

    // A third process started later with the same --secret adds nothing.
    const c = await start(data)
    expect((await secrets(c.url)).filter(({ key }) => key === SECRET)).toHaveLength(1)
  }, 120_000)

  it('loses nothing acknowledged when one is killed during parallel writes', async () => {
    const data = await createDatabase(cluster)
    const [a, b] = await Promise.all([start(data), start(data)])
    const acknowledged: string[] = []
    let answeredByA = 0
    let killed: Promise<void> | undefined
    const write = async (server: Started, key: string) => {
      try {
        const answer = await call(server.url, SECRET, 'keyv.set', set(key, key))
        if (answer.status === 200) acknowledged.push(key)
        // Kill `a` once some of its writes are answered and others are still in flight.
        if (server === a && ++answeredByA === 50) killed = crash(a)
        return answer.status
      } catch {
        return 'no answer'
      }
    }
    const statuses = await Promise.all([
      ...Array.from({ length: 300 }, (_, i) => write(a, `a${i}`)),
      ...Array.from({ length: 300 }, (_, i) => write(b, `b${i}`)),
    ])
    await killed
    expect(killed).toBeDefined()
    // The other process answered every one of its writes.
    expect(statuses.slice(300)).toEqual(Array.from({ length: 300 }, () => 200))
    expect(acknowledged.filter((key) => key.startsWith('a')).length).toBeGreaterThanOrEqual(50)

    const scan = await call(b.url, SECRET, 'keyv.scan', [['$$', 'count', 1000]])
    const stored = new Set(scan.value as string[])
    expect(acknowledged.filter((key) => !stored.has(key))).toEqual([])
  }, 120_000)
})

describe('a serve process whose PostgreSQL goes away', () => {
  it('answers 503 saying so, and answers again once it is back, without a restart', async () => {
    const own = await startCluster()
    clusters.push(own)
    const data = await createDatabase(own)
    const server = await start(data)
    expect((await call(server.url, SECRET, 'keyv.set', set('k', 'kept'))).status).toBe(200)
    const made = await fetch(`${server.url}/_accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CONTROL}` },
    })
    const hosted = (await made.json()) as { baseUrl: string; secret: string }

    await own.stop('immediate')
    const down = await call(server.url, SECRET, 'keyv.get', get('k'))
    expect(down.status).toBe(503)
    expect(down.value).toMatchObject({
      error: {
        message: expect.stringMatching(
          /^the service's database is unavailable \(.+\); try again shortly$/,
        ) as unknown,
      },
    })
    expect((await control(server.url, 'secrets')).status).toBe(503)
    // Hosted accounts, and making one, say so too.
    const away = await call(hosted.baseUrl, hosted.secret, 'core.ping', [])
    expect(away.status).toBe(503)
    expect(away.value).toMatchObject({
      error: {
        message: expect.stringMatching(/^the service's database is unavailable/) as unknown,
      },
    })
    const refused = await fetch(`${server.url}/_accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CONTROL}` },
    })
    expect(refused.status).toBe(503)

    await own.start()
    expect(await call(server.url, SECRET, 'keyv.get', get('k'))).toEqual({
      status: 200,
      value: 'kept',
    })
    expect((await call(server.url, SECRET, 'keyv.set', set('k', 'again'))).status).toBe(200)
    expect((await call(hosted.baseUrl, hosted.secret, 'core.ping', [])).value).toBe(true)
  }, 120_000)

  it('refuses to start, saying which database, when it cannot reach it', async () => {
    const own = await startCluster()
    clusters.push(own)
    const data = own.url('postgres')
    await own.stop('fast')
    const started = serve(['--port', '0', '--data', data])
    const [code] = (await once(started.child, 'exit')) as [number]
    expect(code).toBe(1)
    expect(started.output.stderr).toContain(
      `error: --data postgres://postgres@127.0.0.1:${own.port}/postgres: cannot open PostgreSQL database postgres@127.0.0.1:${own.port}/postgres: connect ECONNREFUSED`,
    )
  }, 60_000)
})
