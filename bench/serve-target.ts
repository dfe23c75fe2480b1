/**
 * One HTTP server for `bench/serve.ts`, in its own process so that the load generator does not
 * share its event loop: `tsx bench/serve-target.ts engine|raw|hono`. Prints `<port> <token>`.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { createEngine } from '../src/engine'
import { listen } from '../src/node'
import { createMemoryStore } from '../src/storage'
import { ok, request } from './lib'

const reverse = (text: string) => [...text].reverse().join('')
const kind = process.argv[2]

if (kind === 'engine') {
  const engine = createEngine({ store: createMemoryStore(), baseUrl: 'http://127.0.0.1' })
  const { key } = await engine.account.createSecret()
  const token = await ok(engine.handle(request('auth/create?abilities=type.string', key)))
  const server = await listen(engine, { port: 0 })
  console.log(`${server.port} ${token}`)
} else if (kind === 'raw') {
  const server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (body += chunk))
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end(reverse(body))
    })
  })
  server.listen(0, '127.0.0.1', () => console.log(`${(server.address() as AddressInfo).port} -`))
} else if (kind === 'hono') {
  const app = new Hono()
  app.post('/type/string/reverse', async (c) => c.text(reverse(await c.req.text())))
  serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, ({ port }) =>
    console.log(`${port} -`),
  )
} else {
  console.error('usage: tsx bench/serve-target.ts engine|raw|hono')
  process.exit(2)
}
