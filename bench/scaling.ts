/**
 * Scaling `serve` out: throughput of 1, 2 and 4 `serve` processes over one PostgreSQL
 * database, for a mix of three `keyv.get` to one `keyv.set` with an authorization token, as
 * ratios to one process over SQLite measured in the same run. Rounds are interleaved
 * (SQLite, then 1, 2 and 4 over PostgreSQL, then again), and each figure is the median of
 * its rounds. Alongside: the CPU each request costs in the `serve` processes and in
 * PostgreSQL, and how many cores were busy, with ours (serve, PostgreSQL and this load
 * generator) and on the whole machine: that says where the limit is, and how much others
 * sharing the machine took.
 *
 * `npm run bench -- scaling`; BENCH_SECONDS (default 3), BENCH_ROUNDS (3), BENCH_CONNECTIONS
 * (32 in all, shared among the processes of a row).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import autocannon from 'autocannon'
import { createDatabase, startCluster } from '../src/testing/postgres'
import { median } from './lib'
import { bundleServe } from './serve-bundle'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32)
const KEYS = 1000
const SECRET = 'bench-secret-0123456789'
const CONTROL = 'bench-control-token-0123456789'
const CORES = cpus().length
/** Clock ticks per second of /proc/<pid>/stat: 100 on Linux. */
const TICKS = 100

const bundle = await bundleServe('bench-scaling')

const children: ChildProcess[] = []
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')))

interface Server {
  url: string
  pid: number
}

async function startServe(data: string): Promise<Server> {
  const child = spawn(
    process.execPath,
    [bundle, '--port', '0', '--secret', SECRET, '--control-token', CONTROL, '--data', data],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  children.push(child)
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`serve exited with ${code} before listening`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const found = /^listening on (http:\/\/\S+)$/.exec(line)?.[1]
      if (found) resolve(found)
    })
  })
  return { url, pid: child.pid! }
}

/** CPU seconds a process has used; with `children`, also its children that have ended. */
function cpuSeconds(pid: number, children = false): number {
  try {
    // Fields after the command name (which may hold spaces) start at field 3, `state`.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number)
    const [utime, stime, cutime, cstime] = [fields[11]!, fields[12]!, fields[13]!, fields[14]!]
    return (utime + stime + (children ? cutime + cstime : 0)) / TICKS
  } catch {
    return 0 // ended since it was listed
  }
}

/** PostgreSQL's CPU: the postmaster, its live backends, and those that ended (it reaped them). */
function postgresCpu(postmaster: number): number {
  let total = cpuSeconds(postmaster, true)
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid === postmaster) total += cpuSeconds(Number(entry))
    } catch {
      // ended while we looked
    }
  }
  return total
}

/** Calls `path` (arguments in its query) with the secret; the answer's text. */
const call = (server: Server, path: string) =>
  fetch(`${server.url}/${path}`, {
    method: 'POST',
    headers: { authorization: `bearer ${SECRET}`, 'content-type': 'text/plain' },
  }).then(async (response) => {
    const text = await response.text()
    if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`)
    return text
  })

/** The keys the reads find, and an authorization for keyv, as a client's tests use. */
async function prepare(server: Server): Promise<string> {
  for (let i = 0; i < KEYS; i += 100) {
    await Promise.all(
      Array.from({ length: 100 }, (_, j) => call(server, `keyv/set?key=k${i + j}&value=${i + j}`)),
    )
  }
  return call(server, 'auth/create?abilities=keyv')
}

/** Requests a process answers under `connections` in `SECONDS`: 3 reads to 1 write. */
async function load(server: Server, token: string, connections: number): Promise<number> {
  const headers = { authorization: `bearer ${token}`, 'content-type': 'text/plain' }
  const key = () => `k${Math.floor(Math.random() * KEYS)}`
  const get = {
    method: 'POST' as const,
    headers,
    setupRequest: <R>(request: R) => ({ ...request, path: `/keyv/get?key=${key()}` }),
  }
  const set = {
    method: 'POST' as const,
    headers,
    setupRequest: <R>(request: R) => ({ ...request, path: `/keyv/set?key=${key()}&value=w` }),
  }
  const result = await autocannon({
    url: server.url,
    connections,
    duration: SECONDS,
    requests: [get, get, get, set],
  })
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${server.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  }
  return result.requests.total
}

/** Busy CPU seconds of the whole machine, whoever used them (/proc/stat). */
function machineCpu(): number {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .split(/\s+/)
    .map(Number)
  return (user! + nice! + system! + irq! + softirq! + steal!) / TICKS
}

interface Measure {
  perSecond: number
  serveCpuMs: number
  postgresCpuMs: number
  busyCores: number
  machineCores: number
}

async function measure(
  servers: readonly Server[],
  token: string,
  postmaster: number | undefined,
): Promise<Measure> {
  const serveCpu = () => servers.reduce((sum, { pid }) => sum + cpuSeconds(pid), 0)
  const pgCpu = () => (postmaster === undefined ? 0 : postgresCpu(postmaster))
  const ownCpu = () => {
    const { user, system } = process.cpuUsage()
    return (user + system) / 1e6
  }
  const before = {
    serve: serveCpu(),
    pg: pgCpu(),
    own: ownCpu(),
    machine: machineCpu(),
    at: performance.now(),
  }
  const per = Math.max(1, Math.floor(CONNECTIONS / servers.length))
  const counts = await Promise.all(servers.map((server) => load(server, token, per)))
  const seconds = (performance.now() - before.at) / 1000
  const requests = counts.reduce((sum, count) => sum + count, 0)
  const serve = serveCpu() - before.serve
  const pg = pgCpu() - before.pg
  const own = ownCpu() - before.own
  return {
    perSecond: requests / seconds,
    serveCpuMs: (serve * 1000) / requests,
    postgresCpuMs: (pg * 1000) / requests,
    busyCores: (serve + pg + own) / seconds,
    machineCores: (machineCpu() - before.machine) / seconds,
  }
}

const dir = mkdtempSync(join(tmpdir(), 'bench-scaling-'))
const cluster = await startCluster()
try {
  const postmaster = Number(
    readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0],
  )
  const database = await createDatabase(cluster, 'bench')
  const sqlite = await startServe(join(dir, 'account.db'))
  const pgServers: Server[] = []
  for (let i = 0; i < 4; i++) pgServers.push(await startServe(database))
  const sqliteToken = await prepare(sqlite)
  const pgToken = await prepare(pgServers[0]!)

  const rows: [string, readonly Server[], string, number | undefined][] = [
    ['1 process, SQLite', [sqlite], sqliteToken, undefined],
    ['1 process, PostgreSQL', pgServers.slice(0, 1), pgToken, postmaster],
    ['2 processes, PostgreSQL', pgServers.slice(0, 2), pgToken, postmaster],
    ['4 processes, PostgreSQL', pgServers, pgToken, postmaster],
  ]
  // Warm every process (JIT, connections) before the first measured round.
  for (const [, servers, token, pg] of rows) await measure(servers, token, pg)
  const results = new Map<string, Measure[]>(rows.map(([name]) => [name, []]))
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, servers, token, pg] of rows) {
      results.get(name)!.push(await measure(servers, token, pg))
    }
  }

  const figure = (name: string, field: keyof Measure) =>
    median(results.get(name)!.map((result) => result[field]))
  const baseline = figure(rows[0]![0], 'perSecond')
  console.log(
    `\nscaling serve out: 3 keyv.get to 1 keyv.set, ${CONNECTIONS} connections in all, median of ${ROUNDS} rounds of ${SECONDS} s, ${CORES} cores`,
  )
  console.log(
    'ratio to SQLite     req/s   serve CPU ms/req   PostgreSQL CPU ms/req   cores: ours  machine   what',
  )
  for (const [name] of rows) {
    const perSecond = figure(name, 'perSecond')
    console.log(
      [
        (perSecond / baseline).toFixed(2).padStart(14),
        perSecond.toFixed(0).padStart(9),
        figure(name, 'serveCpuMs').toFixed(3).padStart(18),
        figure(name, 'postgresCpuMs').toFixed(3).padStart(23),
        figure(name, 'busyCores').toFixed(2).padStart(12),
        figure(name, 'machineCores').toFixed(2).padStart(8),
        `  ${name}`,
      ].join(' '),
    )
  }
} finally {
  for (const child of children) child.kill('SIGTERM')
  await cluster.remove()
  rmSync(dir, { recursive: true, force: true })
}
