/**
 * Fair shares between accounts, over a real `serve`: account B's `core.ping` latency while
 * account A keeps 64 CPU-heavy requests in flight, against B's pings with A idle in the same
 * round. Goal: B's p99 with A saturating within 5× its p99 alone (decision 072). Also: how
 * many of A's requests were answered per second, and how (200, or 408 once one waited past the
 * time limit behind A's own).
 *
 * `npm run bench -- fair-share`; BENCH_ROUNDS (default 3), BENCH_PINGS (300 per phase),
 * BENCH_HEAVY (64 of A's in flight).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { machine, median, printTable, saveResults, type Line } from './lib'
import { bundleServe } from './serve-bundle'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const PINGS = Number(process.env.BENCH_PINGS ?? 300)
const HEAVY = Number(process.env.BENCH_HEAVY ?? 64)
const CONTROL = 'bench-control-token-0123456789'
const GOAL = 5

const bundle = await bundleServe('bench-fair-share')

const children: ChildProcess[] = []
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')))

async function startServe(): Promise<string> {
  const child = spawn(process.execPath, [bundle, '--port', '0', '--control-token', CONTROL], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(child)
  return new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`serve exited with ${code} before listening`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const found = /^listening on (http:\/\/\S+)$/.exec(line)?.[1]
      if (found) resolve(found)
    })
  })
}

interface Account {
  baseUrl: string
  secret: string
}

async function newAccount(url: string): Promise<Account> {
  const response = await fetch(`${url}/_accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${CONTROL}` },
  })
  if (response.status !== 201) throw new Error(`POST /_accounts: ${response.status}`)
  return (await response.json()) as Account
}

/** One request of ~900 calls: 300 times, reverse a 20 kB string and measure it. */
const heavyBody = JSON.stringify([
  ['>>', Array.from({ length: 300 }, (_, i) => i)],
  ['$$', 'big', 'x'.repeat(20_000)],
  [
    '$$',
    'proc',
    ['{}', ['>>', ['@@', 'big']], ['()', 'type.string.reverse'], ['()', 'type.string.length']],
  ],
])

const post = (account: Account, path: string, body?: string) =>
  fetch(`${account.baseUrl}/${path}`, {
    method: 'POST',
    headers: {
      authorization: `bearer ${account.secret}`,
      'content-type': 'application/vnd.service+json',
    },
    ...(body === undefined ? {} : { body }),
  }).then(async (response) => {
    await response.arrayBuffer()
    return response.status
  })

/** B's pings one after another: each one's latency in ms. */
async function pings(b: Account): Promise<number[]> {
  const latencies: number[] = []
  for (let i = 0; i < PINGS; i++) {
    const sent = performance.now()
    const status = await post(b, 'core/ping')
    if (status !== 200) throw new Error(`core.ping answered ${status}`)
    latencies.push(performance.now() - sent)
  }
  return latencies
}

/** A's closed loop: `HEAVY` requests in flight until `stop`; the statuses answered. */
function saturate(a: Account) {
  let stopped = false
  const statuses: number[] = []
  const loops = Array.from({ length: HEAVY }, async () => {
    while (!stopped) statuses.push(await post(a, 'enum/map', heavyBody).catch(() => 0))
  })
  return {
    statuses,
    async stop() {
      stopped = true
      await Promise.all(loops)
    },
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

async function main() {
  const url = await startServe()
  const [a, b] = [await newAccount(url), await newAccount(url)]
  await pings(b)
  const rounds: Array<{
    alone: number[]
    loaded: number[]
    heavyPerSecond: number
    statuses: number[]
  }> = []
  for (let round = 0; round < ROUNDS; round++) {
    const alone = await pings(b)
    const load = saturate(a)
    // A's first requests are in flight before B measures.
    await new Promise((resolve) => setTimeout(resolve, 500))
    const started = performance.now()
    const before = load.statuses.length
    const loaded = await pings(b)
    const seconds = (performance.now() - started) / 1000
    const heavyPerSecond = (load.statuses.length - before) / seconds
    await load.stop()
    rounds.push({ alone, loaded, heavyPerSecond, statuses: load.statuses })
  }
  const p = (phase: 'alone' | 'loaded', q: number) =>
    median(rounds.map((round) => percentile(round[phase], q)))
  const ratio = median(rounds.map((r) => percentile(r.loaded, 99) / percentile(r.alone, 99)))
  const statuses = rounds.flatMap((round) => round.statuses)
  const count = (status: number) => statuses.filter((s) => s === status).length
  const lines: Line[] = [
    {
      what: 'B core.ping p99, A idle',
      figure: p('alone', 99),
      unit: 'ms',
      ratios: {},
      note: `p50 ${p('alone', 50).toFixed(2)} ms`,
    },
    {
      what: `B core.ping p99, A with ${HEAVY} heavy requests in flight`,
      figure: p('loaded', 99),
      unit: 'ms',
      ratios: { 'B core.ping p99, A idle': ratio },
      goals: [{ to: 'B core.ping p99, A idle', atMost: GOAL }],
      met: ratio <= GOAL,
      note: `p50 ${p('loaded', 50).toFixed(2)} ms; A answered ${median(rounds.map((r) => r.heavyPerSecond)).toFixed(1)} heavy requests/s (${count(200)} × 200, ${count(408)} × 408, ${statuses.length - count(200) - count(408)} other)`,
    },
  ]
  printTable(
    `Fair shares over serve: B's ping while A saturates, medians of ${ROUNDS} rounds of ${PINGS} pings, ${machine()}`,
    lines,
  )
  saveResults('fair-share', { load: machine() })
}

await main()
process.exit(0)
