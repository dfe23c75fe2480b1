/**
 * The baselines `bench/serve.ts` measures `serve` against, each in a process of its own so that
 * the load generator does not share its event loop: `raw` (plain `node:http`) and `hono` (a
 * minimal Hono app over @hono/node-server). Both do the work an authorized
 * `type.string.reverse` does at its least: read the body, check the bearer token (in constant
 * time), reverse the text. `raw-sqlite <file>` is plain `node:http` doing the least an
 * authorized `keyv.set` over `serve --data` does: read the body, check the token, and in one
 * durable SQLite transaction (better-sqlite3, the pragmas of `serve --data`: an exclusive lock,
 * WAL, synchronous FULL) read the key's old value and the account's usage, write both. Prints
 * `<port>` once listening.
 */
import { timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { RAW_TOKEN } from './lib'

const expected = Buffer.from(`bearer ${RAW_TOKEN}`)
const reverse = (text: string) => [...text].reverse().join('')
const authorized = (header: string | undefined) => {
  const given = Buffer.from(header ?? '')
  return given.length === expected.length && timingSafeEqual(given, expected)
}
const kind = process.argv[2]
// Ends on SIGINT by exiting, so that whatever runs on exit (a CPU profile) does.
process.on('SIGINT', () => process.exit(0))

/** A raw server: the body read whole, the token checked, then `answer` writes the response. */
function rawServer(answer: (req: IncomingMessage, res: ServerResponse, body: string) => void) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      if (!authorized(req.headers.authorization)) {
        res.writeHead(401).end()
        return
      }
      answer(req, res, Buffer.concat(chunks).toString('utf8'))
    })
  })
  server.listen(0, '127.0.0.1', () => console.log((server.address() as AddressInfo).port))
}

if (kind === 'raw') {
  rawServer((_req, res, body) => {
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.end(reverse(body))
  })
} else if (kind === 'raw-sqlite') {
  const { default: Database } = await import('better-sqlite3')
  const db = new Database(process.argv[3]!, { timeout: 0 })
  db.pragma('locking_mode = EXCLUSIVE')
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = FULL')
  db.exec(`CREATE TABLE IF NOT EXISTS keyv (bucket TEXT NOT NULL, key TEXT NOT NULL,
    value TEXT NOT NULL, PRIMARY KEY (bucket, key)) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;`)
  const getKey = db.prepare<[string, string], { value: string }>(
    'SELECT value FROM keyv WHERE bucket = ? AND key = ?',
  )
  const setKey = db.prepare('INSERT OR REPLACE INTO keyv (bucket, key, value) VALUES (?, ?, ?)')
  const getMeta = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?')
  const putMeta = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)')
  const set = db.transaction((bucket: string, key: string, value: string) => {
    const old = getKey.get(bucket, key)?.value
    const usage = Number(getMeta.get('usage')?.value ?? 0)
    setKey.run(bucket, key, value)
    putMeta.run('usage', String(usage - (old?.length ?? 0) + value.length))
  })
  rawServer((req, res, body) => {
    const value = new URL(req.url!, 'http://raw').searchParams.get('value') ?? 'null'
    set('default', body, value)
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.end('true')
  })
} else if (kind === 'hono') {
  const app = new Hono()
  app.post('/type/string/reverse', async (c) => {
    const text = await c.req.text()
    if (!authorized(c.req.header('authorization'))) return c.body(null, 401)
    return c.text(reverse(text))
  })
  serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, ({ port }) => console.log(port))
} else {
  console.error('usage: node serve-target.mjs raw|hono|raw-sqlite <file>')
  process.exit(2)
}
