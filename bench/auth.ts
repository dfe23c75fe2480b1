/**
 * Authorization and composition costs, as ratios to a baseline measured in the same run:
 * `auth.create` and token verification per second, secret keys among 10,000 secrets, and one
 * 20-call composition against 20 single calls. `npm run bench`.
 *
 * Baseline: build a Request, run a bare handler that reverses a string, build and read the
 * Response — the floor any Fetch-shaped engine pays per call.
 */
import { createEngine, createManualClock, type Engine } from '../src/engine'
import { createMemoryStore } from '../src/storage'

const BASE = 'https://bench.example.test'
const ROUNDS = 7
const CALLS = Number(process.env.BENCH_CALLS ?? 1000)

const request = (path: string, token: string, body = '', type = 'text/plain') =>
  new Request(`${BASE}/${path}`, {
    method: 'POST',
    headers: { authorization: `bearer ${token}`, 'content-type': type },
    body,
  })

async function bare(req: Request): Promise<Response> {
  const text = await req.text()
  return new Response([...text].reverse().join(''), { headers: { 'content-type': 'text/plain' } })
}

/** Median over rounds of the time one call takes, in µs; `fn(i)` is the round's i-th call. */
async function perCall(fn: (round: number, i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(100, CALLS); i++) await fn(-1, i)
  const rounds: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now()
    for (let i = 0; i < CALLS; i++) await fn(round, i)
    rounds.push(((performance.now() - started) * 1000) / CALLS)
  }
  return rounds.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!
}

async function ok(response: Promise<Response>): Promise<string> {
  const answer = await response
  const text = await answer.text()
  if (answer.status !== 200) throw new Error(`${answer.status} ${text}`)
  return text
}

async function mint(engine: Engine, key: string): Promise<string> {
  return ok(engine.handle(request('auth/create?abilities=core,type', key)))
}

async function main() {
  const engine = createEngine({
    store: createMemoryStore(),
    baseUrl: BASE,
    clock: createManualClock(),
  })
  const { key } = await engine.account.createSecret()
  const rows: Array<[string, number]> = []

  rows.push([
    'baseline: bare Request → reverse → Response',
    await perCall(() => bare(request('x', 'k', 'hello')).then((r) => r.text())),
  ])
  rows.push(['auth.create', await perCall(() => mint(engine, key))])

  // Fresh tokens each round (more than the verified-signature memo holds), each used once.
  const fresh: string[][] = []
  for (let round = -1; round < ROUNDS; round++) {
    const tokens: string[] = []
    for (let i = 0; i < CALLS; i++) tokens.push(await mint(engine, key))
    fresh.push(tokens)
  }
  rows.push([
    'core.ping, an authorization seen for the first time (HMAC verified)',
    await perCall((round, i) =>
      ok(engine.handle(request('core/ping', fresh[round + 1]![i % CALLS]!))),
    ),
  ])
  const token = fresh[0]![0]!
  rows.push([
    'core.ping, an authorization used before',
    await perCall(() => ok(engine.handle(request('core/ping', token)))),
  ])
  rows.push([
    'core.ping, a secret key (1 secret)',
    await perCall(() => ok(engine.handle(request('core/ping', key)))),
  ])
  for (let i = 0; i < 9999; i++) await engine.account.createSecret()
  rows.push([
    'core.ping, a secret key (10,000 secrets)',
    await perCall(() => ok(engine.handle(request('core/ping', key)))),
  ])

  const reverse = ['()', 'type.string.reverse']
  const composition = JSON.stringify([
    ['$$', 'proc', ['{}', ['>>', ['%%', 'hello']], ...Array.from({ length: 20 }, () => reverse)]],
  ])
  const composed = await perCall(() =>
    ok(engine.handle(request('core/exec', key, composition, 'application/vnd.service+json'))),
  )
  const single = await perCall(async () => {
    for (let i = 0; i < 20; i++)
      await ok(engine.handle(request('type/string/reverse', key, 'hello')))
  })
  rows.push(['one request: core.exec of 20 type.string.reverse calls', composed])
  rows.push(['20 requests: type.string.reverse each', single])

  const [, baseline] = rows[0]!
  console.log(
    `\nauthorization and composition — calls per round: ${CALLS}, rounds: ${ROUNDS}, medians`,
  )
  console.log('ratio to baseline  µs/call   calls/s  what')
  for (const [name, micros] of rows) {
    console.log(
      `${(micros / baseline).toFixed(2).padStart(17)}  ${micros.toFixed(1).padStart(7)}  ${Math.round(
        1e6 / micros,
      )
        .toString()
        .padStart(8)}  ${name}`,
    )
  }
  console.log(`20-call composition / 20 single calls: ${(composed / single).toFixed(2)}`)
}

await main()
