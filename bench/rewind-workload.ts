/**
 * The account the rewind benchmarks go back through (decision 086): 10,000 keys, then 10,000
 * exchanges — 1,000 `auth.create` (the 1,000 authorizations it holds), 2,000 `keyv.set` over a
 * working set of keys, 5,000 `keyv.get`, 1,000 `keyv.scan`, 1,000 `core.ping` — and rewinds to
 * before any of them, drawn uniformly, each timed, then back to where it was. Shared by Node
 * (`bench/rewind.ts`) and Chromium (`bench/page/main.ts`): no Node import here.
 */
import type { Engine } from '../src/engine'
import type { Mutation } from '../src/engine/store'

export const KEYS = 10_000
export const EXCHANGES = 10_000

/** The keys the benchmark's account holds before its history begins. */
export function fill(): Mutation[] {
  return Array.from({ length: KEYS }, (_, i) => ({
    op: 'setKey',
    bucket: 'data',
    key: `k${String(i).padStart(5, '0')}`,
    value: { n: i, name: `item ${i}` },
  }))
}

/** A small deterministic generator, so every run walks the same exchanges. */
export function numbers(seed = 1) {
  let state = seed
  return (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state % below
  }
}

const key = (i: number) => `k${String(i).padStart(5, '0')}`

/**
 * Sends the 10,000 exchanges; `spread` keys the writes land on (a suite's working set; `KEYS`
 * puts each on a key of its own, the worst case for a rewind). Answers the exchanges' ids.
 */
export async function play(engine: Engine, secret: string, spread: number): Promise<number[]> {
  const base = engine.settings.baseUrl
  const random = numbers(spread)
  const send = async (path: string, body = '', type = 'text/plain') => {
    const response = await engine.handle(
      new Request(`${base}/${path}`, {
        method: 'POST',
        headers: { authorization: `bearer ${secret}`, 'content-type': type },
        body,
      }),
    )
    if (response.status !== 200)
      throw new Error(`${path}: ${response.status} ${await response.text()}`)
    await response.arrayBuffer()
  }
  const kinds = [
    ...Array(1000).fill('auth'),
    ...Array(2000).fill('set'),
    ...Array(5000).fill('get'),
    ...Array(1000).fill('scan'),
    ...Array(1000).fill('ping'),
  ] as string[]
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = random(i + 1)
    ;[kinds[i], kinds[j]] = [kinds[j]!, kinds[i]!]
  }
  let written = 0
  for (const kind of kinds) {
    switch (kind) {
      case 'auth':
        await send('auth/create?abilities=keyv.get,core.ping')
        break
      case 'set':
        // Spread over the working set in turn, so that `KEYS` writes each key once.
        await send(`keyv/set?bucket=data&key=${key((written++ * 7919) % spread)}&value=${written}`)
        break
      case 'get':
        await send(`keyv/get?bucket=data&key=${key(random(KEYS))}`)
        break
      case 'scan':
        await send(`keyv/scan?bucket=data&prefix=${key(random(KEYS)).slice(0, 4)}&count=20`)
        break
      default:
        await send('core/ping')
    }
  }
  // Journal ids count one per request: the last 10,000 end at the newest.
  const { exchanges } = (await (
    await engine.handle(new Request(`${base}/_account/exchanges?after=0`))
  ).json()) as { exchanges: Array<{ id: number }> }
  const last = exchanges[0]!.id
  return Array.from({ length: EXCHANGES }, (_, i) => last - EXCHANGES + 1 + i)
}

/**
 * Rewinds to before `count` exchanges drawn uniformly among `ids`, timing each rewind alone
 * (in milliseconds); after each, back to the main branch and the new branch deleted, so the
 * next starts from the whole timeline again.
 */
export async function rewinds(engine: Engine, ids: number[], count: number): Promise<number[]> {
  const random = numbers(7)
  const times: number[] = []
  for (let i = 0; i < count; i++) {
    const before = ids[random(ids.length)]!
    const started = performance.now()
    const branch = await engine.history.rewind(before)
    times.push(performance.now() - started)
    await engine.history.switchTo('main')
    engine.history.remove(branch.id)
  }
  return times
}

/** The `q`-quantile of `times`. */
export function quantile(times: readonly number[], q: number): number {
  const sorted = [...times].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}
