/**
 * Authorization and composition costs on the memory store, as ratios to the bare-handler
 * baseline measured in the same interleaved rounds: `auth.create`, a token seen for the first
 * time and one used before, a secret key among 1 and among 10,000 secrets, and one 20-call
 * composition against 20 single calls. `npm run bench -- auth`.
 */
import { createEngine, createManualClock, type Engine } from '../src/engine'
import { createMemoryStore } from '../src/storage'
import {
  bare,
  BASE,
  interleave,
  linesOf,
  machine,
  ok,
  printTable,
  request,
  saveResults,
  type Row,
} from './lib'
import { engineOptions } from './platform'

const CALLS = Number(process.env.BENCH_CALLS ?? 1000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7)
const WARM_UP = 200

const mint = (engine: Engine, key: string) =>
  ok(engine.handle(request('auth/create?abilities=core,type', key)))

const engine = () =>
  createEngine({
    store: createMemoryStore(),
    baseUrl: BASE,
    clock: createManualClock(),
    ...engineOptions,
  })

async function main() {
  const load = machine()
  const one = engine()
  const { key } = await one.account.createSecret()
  const many = engine()
  const { key: manyKey } = await many.account.createSecret()
  for (let i = 0; i < 9999; i++) await many.account.createSecret()

  // A fresh token for every call (more than the memo of verified signatures holds).
  const fresh: string[] = []
  for (let i = 0; i < WARM_UP + ROUNDS * CALLS; i++) fresh.push(await mint(one, key))

  const reverse = ['()', 'type.string.reverse']
  const composition = JSON.stringify([
    ['$$', 'proc', ['{}', ['>>', ['%%', 'hello']], ...Array.from({ length: 20 }, () => reverse)]],
  ])
  const rows: Row[] = [
    { name: 'bare handler', run: () => ok(bare(request('x', 'k', 'hello'))) },
    { name: 'auth.create', run: () => mint(one, key) },
    {
      name: 'core.ping, an authorization seen for the first time',
      run: (i) => ok(one.handle(request('core/ping', fresh[i]!))),
    },
    {
      name: 'core.ping, an authorization used before',
      run: () => ok(one.handle(request('core/ping', fresh[0]!))),
    },
    {
      name: 'core.ping, a secret key (1 secret)',
      run: () => ok(one.handle(request('core/ping', key))),
    },
    {
      name: 'core.ping, a secret key (10,000 secrets)',
      run: () => ok(many.handle(request('core/ping', manyKey))),
    },
    {
      name: 'one request: core.exec of 20 type.string.reverse calls',
      calls: CALLS / 20,
      run: () =>
        ok(one.handle(request('core/exec', key, composition, 'application/vnd.service+json'))),
    },
    {
      name: '20 requests: type.string.reverse each',
      calls: CALLS / 20,
      baselines: ['one request: core.exec of 20 type.string.reverse calls'],
      run: async () => {
        for (let i = 0; i < 20; i++)
          await ok(one.handle(request('type/string/reverse', key, 'hello')))
      },
    },
  ]
  const measured = await interleave(rows, { calls: CALLS, rounds: ROUNDS, warmUp: WARM_UP })
  printTable(
    `Authorization and composition: median of ${ROUNDS} interleaved rounds of ${CALLS} calls, ${load}`,
    linesOf(measured),
  )
  saveResults('auth', { load })
}

await main()
