/**
 * Fair shares between accounts, over a real `serve`: account B's `core.ping` latency while
 * account A runs each kind of burst, against B's pings with A idle just before, in the same
 * round. Goal for every burst: B's p99 within 5× its p99 alone (decisions 072 and 082).
 *
 * Bursts of A (BENCH_BURSTS picks some, comma-separated; all by default):
 * - `cpu`: 64 CPU-heavy requests in flight (BENCH_HEAVY);
 * - `sleeps`: 2,000 `core.sleep`s of 4 s at once (BENCH_SLEEPS), 8 running, the rest waiting;
 * - `compile`: 8 compiles in flight of a program of 20,000 calls;
 * - `simulate`: 8 simulate requests in flight, each of two heavy calls;
 * - `import`: imports of a 60 MB export, one after another, by A's own control token;
 * - `export`: four exports of that account at once, again and again.
 *
 * `npm run bench -- fair-share`; BENCH_ROUNDS (default 1), BENCH_PINGS (300 per phase).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { setMaxListeners } from 'node:events'
import { createInterface } from 'node:readline'
import { machine, median, printTable, saveResults, type Line } from './lib'
import { bundleServe } from './serve-bundle'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1)
const PINGS = Number(process.env.BENCH_PINGS ?? 300)
const HEAVY = Number(process.env.BENCH_HEAVY ?? 64)
const SLEEPS = Number(process.env.BENCH_SLEEPS ?? 2000)
const BURSTS = (process.env.BENCH_BURSTS ?? 'cpu,sleeps,compile,simulate,import,export').split(',')
const CONTROL = 'bench-control-token-0123456789'
const GOAL = 5

const bundle = await bundleServe('bench-fair-share')

const children: ChildProcess[] = []
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')))

async function startServe(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [bundle, '--port', '0', '--control-token', CONTROL], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(child)
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`serve exited with ${code} before listening`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const found = /^listening on (http:\/\/\S+)$/.exec(line)?.[1]
      if (found) resolve(found)
    })
  })
  return { url, child }
}

interface Account {
  baseUrl: string
  secret: string
  controlToken: string
}

async function newAccount(url: string): Promise<Account> {
  const response = await fetch(`${url}/_accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${CONTROL}` },
  })
  if (response.status !== 201) throw new Error(`POST /_accounts: ${response.status}`)
  return (await response.json()) as Account
}

/** The work of one heavy call: `times` times, reverse a 20 kB string and measure it. */
const heavyCall = (times: number) => ({
  input: Array.from({ length: times }, (_, i) => i),
  args: {
    big: 'x'.repeat(20_000),
    proc: [
      '{}',
      ['>>', ['@@', 'big']],
      ['()', 'type.string.reverse'],
      ['()', 'type.string.length'],
    ],
  },
})

/** One request of ~900 calls. */
const heavyBody = (() => {
  const { input, args } = heavyCall(300)
  return JSON.stringify([['>>', input], ...Object.entries(args).map(([k, v]) => ['$$', k, v])])
})()

const compileBody = JSON.stringify([
  [
    '$$',
    'code',
    [
      '%%',
      `a = core.ping\nexec { a.compose(${Array.from({ length: 20_000 }, () => 'a').join(', ')}) }`,
    ],
  ],
])

const TUPLES = 'application/vnd.service+json'

/** A request of the account's, answered: its status (0 when it failed or was stopped). */
async function send(
  url: string,
  token: string,
  init: { method?: string; body?: string; type?: string; signal?: AbortSignal } = {},
): Promise<number> {
  try {
    const response = await fetch(url, {
      method: init.method ?? 'POST',
      headers: {
        authorization: `bearer ${token}`,
        ...(init.body === undefined ? {} : { 'content-type': init.type ?? TUPLES }),
      },
      ...(init.body === undefined ? {} : { body: init.body }),
      ...(init.signal ? { signal: init.signal } : {}),
    })
    await response.arrayBuffer()
    return response.status
  } catch (error) {
    if (!init.signal?.aborted) lastFailure = error
    return 0
  }
}

/** Why the last request not stopped on purpose failed. */
let lastFailure: unknown

/** B's pings one after another: each one's latency in ms. */
async function pings(b: Account, count = PINGS): Promise<number[]> {
  const latencies: number[] = []
  for (let i = 0; i < count; i++) {
    const sent = performance.now()
    // An idle keep-alive socket the server closed as the ping went out on it: send it again
    // (its latency still counts from the first attempt).
    let status = await send(`${b.baseUrl}/core/ping`, b.secret)
    if (status === 0) status = await send(`${b.baseUrl}/core/ping`, b.secret)
    if (status !== 200) {
      throw new Error(`core.ping answered ${status}`, { cause: lastFailure })
    }
    latencies.push(performance.now() - sent)
  }
  return latencies
}

interface Burst {
  statuses: number[]
  stop(): Promise<void>
}

/** `inFlight` loops, each sending `request` again once it is answered, until stopped. */
function closedLoop(inFlight: number, request: (signal: AbortSignal) => Promise<number>): Burst {
  let stopped = false
  const stop = new AbortController()
  // One signal for every request of the burst: thousands listen to it.
  setMaxListeners(Infinity, stop.signal)
  const statuses: number[] = []
  const loops = Array.from({ length: inFlight }, async () => {
    while (!stopped) statuses.push(await request(stop.signal))
  })
  return {
    statuses,
    async stop() {
      stopped = true
      stop.abort()
      await Promise.all(loops)
    },
  }
}

/** A 60 MB export of an account: 60,000 keys of 1 kB. */
async function bigExport(a: Account): Promise<string> {
  const response = await fetch(`${a.baseUrl}/_account/export`, {
    headers: { authorization: `Bearer ${a.controlToken}` },
  })
  const snapshot = (await response.json()) as Record<string, unknown>
  snapshot.keyv = Array.from({ length: 60_000 }, (_, i) => ({
    bucket: 'bench',
    key: `key-${i}`,
    value: `${i}`.padEnd(1_000, '.'),
  }))
  return JSON.stringify(snapshot)
}

const BURST_KINDS: Record<
  string,
  { what: string; start: (a: Account, imported: string) => Burst }
> = {
  cpu: {
    what: `${HEAVY} heavy requests in flight`,
    start: (a) =>
      closedLoop(HEAVY, (signal) =>
        send(`${a.baseUrl}/enum/map`, a.secret, { body: heavyBody, signal }),
      ),
  },
  sleeps: {
    what: `${SLEEPS} core.sleep of 4 s at once`,
    start: (a) =>
      closedLoop(SLEEPS, (signal) =>
        send(`${a.baseUrl}/core/sleep?seconds=4`, a.secret, {
          body: '',
          type: 'text/plain',
          signal,
        }),
      ),
  },
  compile: {
    what: '8 compiles of 20,000 calls in flight',
    start: (a) =>
      closedLoop(8, (signal) =>
        send(`${a.baseUrl}/core/compile`, a.secret, { body: compileBody, signal }),
      ),
  },
  simulate: {
    what: '8 simulates of two heavy calls in flight',
    start: (a) => {
      const call = { endpoint: 'enum.map', ...heavyCall(300) }
      const body = JSON.stringify({ token: a.secret, calls: [call, call] })
      return closedLoop(8, (signal) =>
        send(`${a.baseUrl}/_account/simulate`, a.controlToken, {
          body,
          type: 'application/json',
          signal,
        }),
      )
    },
  },
  import: {
    what: 'imports of a 60 MB export, one after another',
    start: (a, imported) =>
      closedLoop(1, (signal) =>
        send(`${a.baseUrl}/_account/import`, a.controlToken, {
          body: imported,
          type: 'application/json',
          signal,
        }),
      ),
  },
  export: {
    what: 'four exports of 60 MB at once, again and again',
    start: (a) =>
      closedLoop(4, (signal) =>
        send(`${a.baseUrl}/_account/export`, a.controlToken, { method: 'GET', signal }),
      ),
  },
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

async function main() {
  const { url } = await startServe()
  const [a, b] = [await newAccount(url), await newAccount(url)]
  const imported = await bigExport(a)
  let importing = 0
  // Under a heavy load, the first upload of 60 MB was once cut (EPIPE): try again.
  for (let tries = 0; tries < 3 && importing !== 200; tries++) {
    importing = await send(`${a.baseUrl}/_account/import`, a.controlToken, {
      body: imported,
      type: 'application/json',
    })
  }
  if (importing !== 200) {
    throw new Error(`the 60 MB import answered ${importing}`, { cause: lastFailure })
  }
  await pings(b)
  const lines: Line[] = []
  for (const kind of BURSTS) {
    const burst = BURST_KINDS[kind]
    if (!burst) throw new Error(`no burst ${kind}: ${Object.keys(BURST_KINDS).join(', ')}`)
    const rounds: Array<{ alone: number[]; loaded: number[]; statuses: number[] }> = []
    for (let round = 0; round < ROUNDS; round++) {
      const alone = await pings(b)
      const load = burst.start(a, imported)
      // A's first requests are in flight before B measures.
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      const loaded = await pings(b)
      await load.stop()
      rounds.push({ alone, loaded, statuses: load.statuses })
      // What A left running (an import, a sleep) ends before the next measure.
      await new Promise((resolve) => setTimeout(resolve, kind === 'sleeps' ? 4_500 : 1_000))
    }
    const p = (phase: 'alone' | 'loaded', q: number) =>
      median(rounds.map((round) => percentile(round[phase], q)))
    const ratio = median(rounds.map((r) => percentile(r.loaded, 99) / percentile(r.alone, 99)))
    const statuses = rounds.flatMap((round) => round.statuses)
    const counts = new Map<number, number>()
    for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1)
    const answered = [...counts]
      .sort(([x], [y]) => x - y)
      .map(([status, n]) => `${n} × ${status === 0 ? 'stopped' : status}`)
      .join(', ')
    lines.push({
      what: `B ping p99, A: ${burst.what}`,
      figure: p('loaded', 99),
      unit: 'ms',
      ratios: { 'B alone': ratio },
      goals: [{ to: 'B alone', atMost: GOAL }],
      met: ratio <= GOAL,
      note: `alone p99 ${p('alone', 99).toFixed(2)} ms; loaded p50 ${p('loaded', 50).toFixed(2)} ms; A: ${answered}`,
    })
    console.log(`${kind}: ${ratio.toFixed(2)}× (${lines.at(-1)!.note})`)
  }
  printTable(
    `Fair shares over serve: B's ping under each of A's bursts, against B alone just before; medians of ${ROUNDS} round(s) of ${PINGS} pings, ${machine()}`,
    lines,
  )
  saveResults('fair-share', { load: machine() })
}

await main()
process.exit(0)
