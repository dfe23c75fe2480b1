/**
 * Fairness under load: `core.ping` latency over HTTP while four CPU-heavy requests run, with
 * evaluation yielding to the event loop between calls (the default) and never yielding (as
 * before), against pings on an idle server in the same run. `npm run bench`.
 */
import { createEngine } from '../src/engine'
import { listen } from '../src/node'
import { createMemoryStore } from '../src/storage'
import { median } from './lib'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2)
const HEAVY = 4

/** One request of ~9,000 calls: 3,000 times, reverse a 20 kB string and measure it. */
const heavyBody = JSON.stringify([
  ['>>', Array.from({ length: 3000 }, (_, i) => i)],
  ['$$', 'big', 'x'.repeat(20_000)],
  [
    '$$',
    'proc',
    ['{}', ['>>', ['@@', 'big']], ['()', 'type.string.reverse'], ['()', 'type.string.length']],
  ],
])

interface Round {
  latencies: number[]
  heavyMs: number
}

async function round(url: string, key: string, load: boolean): Promise<Round> {
  const send = (path: string, body?: string) =>
    fetch(`${url}/${path}`, {
      method: 'POST',
      headers: { authorization: `bearer ${key}`, 'content-type': 'application/vnd.service+json' },
      body,
    }).then(async (response) => {
      const text = await response.text()
      if (response.status !== 200)
        throw new Error(`${path}: ${response.status} ${text.slice(0, 200)}`)
      return text
    })
  // A server that held its event loop for seconds closes idle keep-alive sockets as soon as it
  // wakes, under a request the client just sent on one: send that request again (the latency
  // measured still runs from the first attempt).
  const post = (path: string, body?: string) =>
    send(path, body).catch((error: unknown) => {
      if (error instanceof TypeError && error.message === 'fetch failed') return send(path, body)
      throw error
    })
  const started = performance.now()
  let done = !load
  const heavy = load
    ? Promise.all(Array.from({ length: HEAVY }, () => post('enum/map', heavyBody))).finally(
        () => (done = true),
      )
    : Promise.resolve([])
  const latencies: number[] = []
  // Pings one after another while the heavy requests run (or 200 of them on an idle server).
  while (load ? !done : latencies.length < 200) {
    const sent = performance.now()
    await post('core/ping')
    latencies.push(performance.now() - sent)
  }
  await heavy
  return { latencies, heavyMs: performance.now() - started }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

async function measure(label: string, sliceMs: number, load: boolean) {
  const engine = createEngine({
    store: createMemoryStore(),
    baseUrl: 'http://127.0.0.1',
    limits: { sliceMs, timeLimitMs: 60_000 },
  })
  const { key } = await engine.account.createSecret()
  const server = await listen(engine, { port: 0 })
  try {
    await round(server.url, key, false)
    const rounds: Round[] = []
    for (let i = 0; i < ROUNDS; i++) rounds.push(await round(server.url, key, load))
    return {
      label,
      pings: median(rounds.map((r) => r.latencies.length)),
      p50: median(rounds.map((r) => percentile(r.latencies, 50))),
      p99: median(rounds.map((r) => percentile(r.latencies, 99))),
      max: median(rounds.map((r) => Math.max(...r.latencies))),
      heavyMs: load ? median(rounds.map((r) => r.heavyMs)) : 0,
    }
  } finally {
    await server.close()
  }
}

async function main() {
  const idle = await measure('idle server', 10, false)
  const before = await measure(
    `${HEAVY} heavy requests, never yielding`,
    Number.POSITIVE_INFINITY,
    true,
  )
  const after = await measure(`${HEAVY} heavy requests, yielding every 10 ms`, 10, true)
  console.log(
    `\nping latency over HTTP while ${HEAVY} heavy requests run — medians of ${ROUNDS} rounds`,
  )
  console.log('p99 / idle p99    p50 ms    p99 ms    max ms  pings  heavy ms  what')
  for (const row of [idle, before, after]) {
    console.log(
      `${(row.p99 / idle.p99).toFixed(1).padStart(14)}  ${row.p50.toFixed(1).padStart(8)}  ${row.p99
        .toFixed(1)
        .padStart(
          8,
        )}  ${row.max.toFixed(1).padStart(8)}  ${String(row.pings).padStart(5)}  ${row.heavyMs
        .toFixed(0)
        .padStart(8)}  ${row.label}`,
    )
  }
}

await main()
