/**
 * Benchmarks, as ratios against a baseline measured in the same run (these machines are
 * noisy; absolute figures across runs mean little). `npm run bench`.
 *
 * Baseline: build a Request, run a bare handler that reverses a string, build and read the
 * Response — the floor any Fetch-shaped engine pays per call.
 */
import 'fake-indexeddb/auto'
import { IDBFactory } from 'fake-indexeddb'
import { createEngine, createManualClock, type Engine } from '../src/engine'
import { createMemoryStore, openIdbStore } from '../src/storage'

const BASE = 'https://bench.example.test'
const ROUNDS = 7

async function measure(calls: number, fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(200, calls); i++) await fn()
  const rounds: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now()
    for (let i = 0; i < calls; i++) await fn()
    rounds.push(((performance.now() - started) * 1000) / calls)
  }
  return rounds.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!
}

const request = (path: string, token: string, body: string, type = 'text/plain') =>
  new Request(`${BASE}/${path}`, {
    method: 'POST',
    headers: { authorization: `bearer ${token}`, 'content-type': type },
    body,
  })

async function bare(req: Request): Promise<Response> {
  const text = await req.text()
  return new Response([...text].reverse().join(''), { headers: { 'content-type': 'text/plain' } })
}

async function engineWith(store: Awaited<ReturnType<typeof openIdbStore>>): Promise<Engine> {
  return createEngine({ store, baseUrl: BASE, clock: createManualClock() })
}

async function main() {
  const calls = Number(process.env.BENCH_CALLS ?? 2000)
  const memory = await engineWith(createMemoryStore())
  const idb = await engineWith(await openIdbStore('bench', { indexedDB: new IDBFactory() }))
  const rows: Array<[string, number]> = []
  const run = async (name: string, fn: () => Promise<Response>) => {
    rows.push([name, await measure(calls, async () => (await fn()).text())])
  }

  await run('baseline: bare Request → reverse → Response', () => bare(request('x', 'k', 'hello')))
  for (const [label, engine] of [
    ['memory', memory],
    ['fake-indexeddb', idb],
  ] as const) {
    const { key } = await engine.account.createSecret()
    const authorization = await (
      await engine.handle(
        new Request(`${BASE}/auth/create?abilities=type,keyv`, {
          method: 'POST',
          headers: { authorization: `bearer ${key}` },
        }),
      )
    ).text()
    const proc = JSON.stringify([
      [
        '$$',
        'proc',
        [
          '{}',
          ['>>', ['%%', 'foo']],
          ['()', 'type.string.reverse'],
          ['()', 'type.string.capitalize'],
        ],
      ],
    ])
    await run(`${label}: type.string.reverse, secret`, () =>
      engine.handle(request('type/string/reverse', key, 'hello')),
    )
    await run(`${label}: type.string.reverse, authorization`, () =>
      engine.handle(request('type/string/reverse', authorization, 'hello')),
    )
    await run(`${label}: core.exec of a 2-call composition`, () =>
      engine.handle(request('core/exec', key, proc, 'application/vnd.service+json')),
    )
    let n = 0
    await run(`${label}: keyv.set`, () =>
      engine.handle(request(`keyv/set?value=1&key=k${n++ % 500}`, key, '')),
    )
    await run(`${label}: keyv.scan, page of 250`, () =>
      engine.handle(request('keyv/scan', key, '')),
    )
  }

  const [, baseline] = rows[0]!
  console.log(`calls per round: ${calls}, rounds: ${ROUNDS}, median per call`)
  console.log('ratio to baseline  µs/call  what')
  for (const [name, micros] of rows) {
    console.log(
      `${(micros / baseline).toFixed(2).padStart(17)}  ${micros.toFixed(1).padStart(7)}  ${name}`,
    )
  }
}

await main()
