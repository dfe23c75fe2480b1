/**
 * The baselines `bench/serve.ts` measures `serve` against, each in a process of its own so that
 * the load generator does not share its event loop: `raw` (plain `node:http`) and `hono` (a
 * minimal Hono app over @hono/node-server). Both do the work an authorized
 * `type.string.reverse` does at its least: read the body, check the bearer token (in constant
 * time), reverse the text. Prints `<port>` once listening.
 */
import { timingSafeEqual } from 'node:crypto'
import { createServer } from 'node:http'
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

if (kind === 'raw') {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      if (!authorized(req.headers.authorization)) {
        res.writeHead(401).end()
        return
      }
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end(reverse(Buffer.concat(chunks).toString('utf8')))
    })
  })
  server.listen(0, '127.0.0.1', () => console.log((server.address() as AddressInfo).port))
} else if (kind === 'hono') {
  const app = new Hono()
  app.post('/type/string/reverse', async (c) => {
    const text = await c.req.text()
    if (!authorized(c.req.header('authorization'))) return c.body(null, 401)
    return c.text(reverse(text))
  })
  serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, ({ port }) => console.log(port))
} else {
  console.error('usage: node serve-target.mjs raw|hono')
  process.exit(2)
}
