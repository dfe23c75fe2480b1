import { execFile, execFileSync, type ExecFileOptions } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'

/**
 * Throwaway PostgreSQL clusters for the tests and benchmarks: Debian's binaries
 * (`/usr/lib/postgresql/<version>/bin`), a data directory in a temporary folder, listening on
 * 127.0.0.1 on a free port, trusting whoever connects there as `postgres`. Run as root (as CI
 * does), the server runs as the `postgres` user, since PostgreSQL refuses to run as root.
 */

/** What a test needs to reach a cluster; what the global setup hands to test files. */
export interface ClusterAddress {
  host: string
  port: number
  user: string
}

export interface Cluster extends ClusterAddress {
  /** The cluster's temporary folder: the data directory and the server log. */
  dir: string
  /** `postgres://postgres@127.0.0.1:<port>/<database>` */
  url(database: string): string
  /** Starts the server again after `stop`, on the same port. */
  start(): Promise<void>
  /** Stops the server; `immediate` ends it the way a crash does, without a checkpoint. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>
  /** Stops the server and removes its folder. */
  remove(): Promise<void>
}

/** The newest PostgreSQL's bin folder, or a message saying how to install one. */
export function postgresBin(): string {
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : []
  if (versions.length === 0) {
    throw new Error(
      `PostgreSQL is not installed (no ${root}/<version>/bin/initdb): run \`node scripts/ensure.mjs postgresql\`, which \`npm test\` runs first`,
    )
  }
  return join(root, versions[0]!, 'bin')
}

/** The user the server runs as: `postgres` when we are root, else ourselves. */
function serverUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {}
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim())
  return { uid: id('-u'), gid: id('-g') }
}

function run(file: string, args: string[], options: ExecFileOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { ...options, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} ${args.join(' ')} failed: ${stderr || error.message}`))
      else resolve(String(stdout))
    })
  })
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      )
    })
  })
}

/** Creates and starts a cluster; `remove()` it when done. */
export async function startCluster(): Promise<Cluster> {
  const bin = postgresBin()
  const user = serverUser()
  const dir = mkdtempSync(join(tmpdir(), 'playground-pg-'))
  if (user.uid !== undefined) chownSync(dir, user.uid, user.gid!)
  const data = join(dir, 'data')
  const as: ExecFileOptions = { ...user, cwd: dir, env: { ...process.env, LC_ALL: 'C' } }
  await run(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
    as,
  )
  let port = 0
  const settings = (): string =>
    [
      `-p ${port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${dir}`,
      '-c max_connections=200',
    ].join(' ')
  const pgCtl = (...args: string[]) =>
    run(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'server.log'), ...args], as)

  const cluster: Cluster = {
    host: '127.0.0.1',
    user: 'postgres',
    get port() {
      return port
    },
    dir,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async start() {
      await pgCtl('-o', settings(), '-w', '-t', '60', 'start')
    },
    async stop(mode = 'fast') {
      await pgCtl('-m', mode, '-w', '-t', '60', 'stop')
    },
    async remove() {
      await cluster.stop('immediate').catch(() => undefined)
      rmSync(dir, { recursive: true, force: true })
    },
  }
  // Another process may take the free port before the server binds it: try a few.
  for (let attempt = 0; ; attempt++) {
    port = await freePort()
    try {
      await cluster.start()
      return cluster
    } catch (error) {
      if (attempt >= 4) {
        rmSync(dir, { recursive: true, force: true })
        throw error
      }
    }
  }
}

/** Creates a new, empty database in the cluster and returns its URL. */
export async function createDatabase(cluster: ClusterAddress, prefix = 'test'): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`
  const client = new pg.Client({ ...cluster, database: 'postgres' })
  await client.connect()
  try {
    await client.query(`CREATE DATABASE ${name}`)
  } finally {
    await client.end()
  }
  return `postgres://${cluster.user}@${cluster.host}:${cluster.port}/${name}`
}
