/**
 * `serve` over real HTTP, started exactly as `npm run serve` starts it, against a raw
 * `node:http` server doing the least the same request needs (read the body, check the bearer
 * token, reverse the text) and a minimal Hono app doing the same, at 8, 32 and 64 connections
 * (autocannon). `serve` rows: an authorized `type.string.reverse` over the memory store with
 * the journal off and with it on (the server's own account, and a hosted account opened as the
 * kit's Playwright fixture opens one, journal on), and an authorized `keyv.set` over `--data`
 * (SQLite, on disk before it is answered), judged against raw `node:http` doing the same
 * durable SQLite write (`bench/serve-target.ts`, `raw-sqlite`), each request a new value.
 *
 * Rounds are interleaved: each round runs every server at each count of connections, one after
 * the other. Each figure is the server's CPU per request (user and system time of the server's
 * process and its children, as `process.cpuUsage` counts it, read from /proc, over the requests
 * answered), beside requests per second. The load generator shares the two cores, so req/s
 * partly measures autocannon; CPU per request holds steadier, and the goal (≥ 0.5 of raw) is
 * judged on it: raw's CPU per request over serve's, the median over rounds.
 *
 * BENCH_SECONDS (2) per run, BENCH_ROUNDS (3) after a warm-up round.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import {
  machine,
  median,
  meets,
  printTable,
  RAW_TOKEN,
  saveResults,
  type Goal,
  type Line,
} from './lib'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const CONNECTIONS = [8, 32, 64]
const SECRET = 'bench-secret-0123456789'
const CONTROL = 'bench-control-token-0123456789'
/** Clock ticks per second in /proc/<pid>/stat: 100 on Linux. */
const TICKS = 100
const here = dirname(fileURLToPath(import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), 'bench-serve-'))

interface Server {
  child: ChildProcess
  base: string
}

interface Target {
  name: string
  server: Server
  path: string
  token: string
  body: string
  /**
   * Each request writes a value of its own (`&value=<n>` appended to `path`): SQLite writes
   * nothing, and syncs nothing, for a row replaced by the same values, which would spare the
   * raw baseline its durable write.
   */
  varies?: boolean
}

/** A fresh value for every request any target sends. */
let written = 0

const children: ChildProcess[] = []
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) killTree(child)
  rmSync(dataDir, { recursive: true, force: true })
})

function killTree(child: ChildProcess) {
  try {
    process.kill(-child.pid!, 'SIGTERM')
  } catch {
    // Already gone.
  }
}

/** Starts `command` in a process group of its own and waits for the URL it prints. */
async function start(command: string, args: string[], pattern: RegExp): Promise<Server> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'], detached: true })
  children.push(child)
  const base = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const found = pattern.exec(line)?.[1]
      if (found) resolve(found)
    })
  })
  return { child, base }
}

const baseline = (...args: string[]) =>
  start(process.execPath, [join(here, 'serve-target.mjs'), ...args], /^(\d+)$/).then(
    ({ child, base }) => ({ child, base: `http://127.0.0.1:${base}` }),
  )

/** `npm run serve`, as a user starts it. */
const serve = (...args: string[]) =>
  start(
    'npm',
    ['run', '--silent', 'serve', '--', '--port', '0', '--secret', SECRET, ...args],
    /^listening on (http:\/\/\S+)$/,
  )

/** CPU seconds used so far by `pid` and every process below it. */
function treeCpuSeconds(pid: number): number {
  const parents = new Map<number, number>()
  const ticks = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // Fields after the command name (which may hold spaces) start at field 3, `state`.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      parents.set(Number(entry), Number(fields[1]))
      ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]))
    } catch {
      // The process ended while we looked.
    }
  }
  let total = 0
  const pending = [pid]
  while (pending.length > 0) {
    const at = pending.pop()!
    total += ticks.get(at) ?? 0
    for (const [child, parent] of parents) if (parent === at) pending.push(child)
  }
  return total / TICKS
}

interface Run {
  rps: number
  cpuPerRequest: number
}

async function run(target: Target, connections: number): Promise<Run> {
  const before = treeCpuSeconds(target.server.child.pid!)
  const result = await autocannon({
    url: `${target.server.base}${target.path}`,
    connections,
    duration: SECONDS,
    method: 'POST',
    headers: { authorization: `bearer ${target.token}`, 'content-type': 'text/plain' },
    body: target.body,
    ...(target.varies
      ? {
          requests: [
            {
              setupRequest: (request) => ({
                ...request,
                path: `${target.path}&value=${++written}`,
              }),
            },
          ],
        }
      : {}),
    ...(process.env.BENCH_RATE ? { overallRate: Number(process.env.BENCH_RATE) } : {}),
  })
  const cpu = treeCpuSeconds(target.server.child.pid!) - before
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${target.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  }
  const answered = result['2xx']
  return { rps: answered / SECONDS, cpuPerRequest: (cpu * 1e6) / answered }
}

async function mint(base: string, secret: string, abilities: string): Promise<string> {
  const response = await fetch(`${base}/auth/create?abilities=${abilities}`, {
    method: 'POST',
    headers: { authorization: `bearer ${secret}`, accept: 'text/plain' },
  })
  if (response.status !== 200) throw new Error(`auth.create: ${response.status}`)
  return response.text()
}

const load = machine()
const raw = await baseline('raw')
const hono = await baseline('hono')
const rawSqlite = await baseline('raw-sqlite', join(dataDir, 'raw.db'))
const memory = await serve('--control-token', CONTROL)
const journaled = await serve('--control-token', CONTROL)
const sqlite = await serve('--control-token', CONTROL, '--data', join(dataDir, 'account.db'))

/** A control-plane POST, failing the benchmark unless it answers 2xx. */
async function control(base: string, token: string, path: string, body: unknown) {
  const response = await fetch(`${base}/${path}`, {
    method: 'POST',
    headers: { authorization: `bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  return response.json() as Promise<Record<string, string>>
}

// The journal on, as the kit's helpers turn it on: the server's own account, and a hosted
// account opened as the Playwright fixture opens one (`POST /_accounts`, then its journal).
await control(journaled.base, CONTROL, '_account/exchanges', { capacity: 1000 })
const hosted = await control(journaled.base, CONTROL, '_accounts', {})
await control(hosted.baseUrl!, hosted.controlToken!, '_account/exchanges', { capacity: 1000 })
const hostedPath = new URL(hosted.baseUrl!).pathname

const body = 'hello, world'
const reversePath = '/type/string/reverse'
const REVERSE = 'serve: type.string.reverse, authorization'
const RAW_SQLITE = 'raw node:http + SQLite write'
const targets: Target[] = [
  { name: 'raw node:http', server: raw, path: reversePath, token: RAW_TOKEN, body },
  { name: 'minimal Hono', server: hono, path: reversePath, token: RAW_TOKEN, body },
  {
    name: RAW_SQLITE,
    server: rawSqlite,
    path: '/keyv/set?bucket=default',
    token: RAW_TOKEN,
    body: 'greeting',
    varies: true,
  },
  {
    name: REVERSE,
    server: memory,
    path: reversePath,
    token: await mint(memory.base, SECRET, 'type.string'),
    body,
  },
  {
    name: `${REVERSE}, journal on`,
    server: journaled,
    path: reversePath,
    token: await mint(journaled.base, SECRET, 'type.string'),
    body,
  },
  {
    name: `${REVERSE}, hosted account, journal on`,
    server: journaled,
    path: `${hostedPath}${reversePath}`,
    token: await mint(hosted.baseUrl!, hosted.secret!, 'type.string'),
    body,
  },
  {
    name: 'serve --data (SQLite): keyv.set, authorization',
    server: sqlite,
    path: '/keyv/set?bucket=default',
    token: await mint(sqlite.base, SECRET, 'keyv'),
    body: 'greeting',
    varies: true,
  },
]

/**
 * Each `serve` row's goal: ≥ 0.5 of raw node:http doing the same work, the journal off or on
 * (a journal row shows its ratio to the same call with it off beside).
 */
function goalsOf(target: Target): Goal[] | undefined {
  if (target.name.startsWith('serve --data')) return [{ to: RAW_SQLITE, atLeast: 0.5 }]
  if (target.name.startsWith('serve')) return [{ to: 'raw node:http', atLeast: 0.5 }]
  return undefined
}

/** The rows a row's ratio is shown to besides raw's and its goals': journal rows, to it off. */
const alsoTo = (target: Target) => (target.name.includes('journal on') ? [REVERSE] : [])

const runs = new Map<string, Run[]>()
const key = (target: Target, connections: number) => `${connections} ${target.name}`
for (let round = 0; round <= ROUNDS; round++) {
  for (const connections of CONNECTIONS) {
    for (const target of targets) {
      const result = await run(target, connections)
      // Round 0 warms every server up; it is not counted.
      if (round === 0) continue
      runs.set(key(target, connections), [...(runs.get(key(target, connections)) ?? []), result])
    }
  }
}

for (const connections of CONNECTIONS) {
  const rawRuns = runs.get(key(targets[0]!, connections))!
  const lines: Line[] = targets.map((target) => {
    const mine = runs.get(key(target, connections))!
    const goals = goalsOf(target)
    const ratios: Record<string, number> = {}
    for (const to of new Set([
      targets[0]!.name,
      ...alsoTo(target),
      ...(goals ?? []).map((goal) => goal.to),
    ])) {
      const theirs = runs.get(
        key(
          targets.find((t) => t.name === to)!,
          connections,
        ),
      )!
      ratios[to] = median(mine.map((r, i) => theirs[i]!.cpuPerRequest / r.cpuPerRequest))
    }
    const rpsRatio = median(mine.map((r, i) => r.rps / rawRuns[i]!.rps))
    const rps = median(mine.map((r) => r.rps))
    const line: Line = {
      what: target.name,
      figure: median(mine.map((r) => r.cpuPerRequest)),
      unit: 'server CPU µs/request',
      ratios,
      note: `${Math.round(rps)} req/s, ${rpsRatio.toFixed(2)}× raw's`,
    }
    if (goals) {
      line.goals = goals
      line.met = goals.some((goal) => meets(ratios[goal.to]!, goal))
    }
    return line
  })
  printTable(
    `serve over HTTP, ${connections} connections: raw's CPU per request over each server's (a throughput ratio), median of ${ROUNDS} interleaved rounds of ${SECONDS} s, ${load}`,
    lines,
  )
}
saveResults('serve', { load })
for (const child of children) killTree(child)
