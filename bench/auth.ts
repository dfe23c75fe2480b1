/**
 * Authorization and composition costs, as ratios to the bare-handler baseline measured in the
 * same run: `auth.create` and token verification per second, a secret key among 10,000
 * secrets, and one 20-call composition against 20 single calls. `npm run bench`.
 */
import { createEngine, createManualClock, type Engine } from '../src/engine'
import { createMemoryStore } from '../src/storage'
import { bare, BASE, ok, perCall, printRatios, request } from './lib'

const CALLS = Number(process.env.BENCH_CALLS ?? 1000)
const ROUNDS = 7
const WARM_UP = 200
const options = { calls: CALLS, rounds: ROUNDS, warmUp: WARM_UP }

const mint = (engine: Engine, key: string) =>
  ok(engine.handle(request('auth/create?abilities=core,type', key)))

async function main() {
  const engine = createEngine({
    store: createMemoryStore(),
    baseUrl: BASE,
    clock: createManualClock(),
  })
  const { key } = await engine.account.createSecret()
  const rows: Array<[string, number]> = []
  const measure = async (what: string, fn: (i: number) => Promise<unknown>) => {
    rows.push([what, await perCall(options, fn)])
  }

  await measure('baseline: bare Request → reverse → Response', () =>
    bare(request('x', 'k', 'hello')).then((response) => response.text()),
  )
  await measure('auth.create', () => mint(engine, key))

  // A fresh token for every call (more than the memo of verified signatures holds).
  const fresh: string[] = []
  for (let i = 0; i < WARM_UP + ROUNDS * CALLS; i++) fresh.push(await mint(engine, key))
  await measure('core.ping, an authorization seen for the first time', (i) =>
    ok(engine.handle(request('core/ping', fresh[i]!))),
  )
  await measure('core.ping, an authorization used before', () =>
    ok(engine.handle(request('core/ping', fresh[0]!))),
  )
  await measure('core.ping, a secret key (1 secret)', () =>
    ok(engine.handle(request('core/ping', key))),
  )
  for (let i = 0; i < 9999; i++) await engine.account.createSecret()
  await measure('core.ping, a secret key (10,000 secrets)', () =>
    ok(engine.handle(request('core/ping', key))),
  )

  const reverse = ['()', 'type.string.reverse']
  const composition = JSON.stringify([
    ['$$', 'proc', ['{}', ['>>', ['%%', 'hello']], ...Array.from({ length: 20 }, () => reverse)]],
  ])
  await measure('one request: core.exec of 20 type.string.reverse calls', () =>
    ok(engine.handle(request('core/exec', key, composition, 'application/vnd.service+json'))),
  )
  await measure('20 requests: type.string.reverse each', async () => {
    for (let i = 0; i < 20; i++)
      await ok(engine.handle(request('type/string/reverse', key, 'hello')))
  })

  printRatios(
    `authorization and composition — ${ROUNDS} rounds of ${CALLS} calls, medians`,
    'µs/call',
    rows,
  )
  console.log('\nper second')
  for (const [what, micros] of rows.slice(1, 6)) {
    console.log(
      `${Math.round(1e6 / micros)
        .toString()
        .padStart(8)}  ${what}`,
    )
  }
  const [composed, single] = rows.slice(-2).map(([, micros]) => micros)
  console.log(`\n20-call composition / 20 single calls: ${(composed! / single!).toFixed(2)}`)
}

await main()
