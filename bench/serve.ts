/**
 * `serve`'s throughput over real HTTP (autocannon, 8 and 64 connections): an authorized
 * `type.string.reverse` against a raw `node:http` server and a minimal Hono app doing the same
 * work, each in its own process, measured in the same run. Ratios to the raw server.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'
import { median } from './lib'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2)

async function start(kind: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/serve-target.ts', kind], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string]
  const [port, token] = line.split(' ')
  return { child, url: `http://127.0.0.1:${port}/type/string/reverse`, token: token! }
}

async function throughput(url: string, token: string, connections: number): Promise<number> {
  const result = await autocannon({
    url,
    connections,
    duration: SECONDS,
    method: 'POST',
    headers: { authorization: `bearer ${token}`, 'content-type': 'text/plain' },
    body: 'hello, world',
  })
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  }
  return result.requests.average
}

const rows: Record<string, Record<number, number>> = {}
for (const kind of ['raw', 'hono', 'engine']) {
  const { child, url, token } = await start(kind)
  rows[kind] = {}
  for (const connections of [8, 64]) {
    await throughput(url, token, connections) // warm-up round
    const rounds: number[] = []
    for (let i = 0; i < ROUNDS; i++) rounds.push(await throughput(url, token, connections))
    rows[kind][connections] = median(rounds)
  }
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  await exited
}

console.log(`\nserve over HTTP, requests per second (median of ${ROUNDS} rounds of ${SECONDS} s)`)
console.log('connections  raw node:http   minimal Hono          serve  serve/raw')
for (const connections of [8, 64]) {
  const [raw, hono, engine] = ['raw', 'hono', 'engine'].map((kind) => rows[kind]![connections]!)
  console.log(
    `${String(connections).padStart(11)}  ${raw!.toFixed(0).padStart(13)}  ${hono!.toFixed(0).padStart(13)}  ${engine!.toFixed(0).padStart(13)}  ${(engine! / raw!).toFixed(2).padStart(9)}`,
  )
}
