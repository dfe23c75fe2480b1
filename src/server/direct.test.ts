import { connect } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createEngine, type EngineOptions } from '../engine'
import { readFaultRule } from '../engine/operator/read-fault-rule'
import { createMemoryStore } from '../storage'
import { listen, type Listener } from './http'

let server: Listener | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function serving(options: Partial<EngineOptions> = {}) {
  const engine = createEngine({
    store: createMemoryStore(),
    baseUrl: 'http://127.0.0.1',
    ...options,
  })
  const { key } = await engine.account.createSecret()
  const handle = vi.spyOn(engine, 'handle')
  server = await listen(engine, { port: 0 })
  return { engine, key, handle, url: server.url, port: server.port }
}

const post = (url: string, key: string, body = 'hello') =>
  fetch(`${url}/type/string/reverse`, {
    method: 'POST',
    headers: { authorization: `bearer ${key}`, 'content-type': 'text/plain' },
    body,
  })

/** Sends `text` on a fresh connection; resolves with what comes back before the server closes. */
function raw(port: number, text: string, until = (_received: string) => false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text))
    let received = ''
    socket.on('data', (chunk) => {
      received += chunk.toString()
      if (until(received)) {
        socket.destroy()
        resolve(received)
      }
    })
    socket.on('end', () => resolve(received))
    socket.on('error', reject)
  })
}

describe('serve answers endpoint calls straight from node:http', () => {
  it('without Fetch objects: the engine’s own answer, headers and all', async () => {
    const { key, handle, url, engine } = await serving()
    const response = await post(url, key)
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('olleh')
    expect(handle).not.toHaveBeenCalled()

    const same = await engine.handle(
      new Request('http://127.0.0.1/type/string/reverse', {
        method: 'POST',
        headers: { authorization: `bearer ${key}`, 'content-type': 'text/plain' },
        body: 'hello',
      }),
    )
    const wire = Object.fromEntries([...response.headers].filter(([name]) => name !== 'date'))
    expect(wire).toEqual({
      ...Object.fromEntries(same.headers),
      'content-length': '5',
      connection: 'keep-alive',
      'keep-alive': 'timeout=5',
    })
  })

  it('answers faults, strict mode and the journal without Fetch objects too', async () => {
    const { key, handle, url, engine } = await serving()
    await engine.operator.faults.add(
      readFaultRule({ endpoint: 'type.string.reverse', status: 503 }),
    )
    expect((await post(url, key)).status).toBe(503)
    expect(handle).not.toHaveBeenCalled()

    await engine.operator.strict.set(true)
    expect((await post(url, key)).status).toBe(200)
    expect(await engine.operator.strict.report()).toHaveLength(1)
    await engine.operator.strict.set(false)

    await engine.operator.journal.setCapacity(10)
    expect((await post(url, key)).status).toBe(200)
    expect(await engine.operator.journal.list()).toHaveLength(1)
    expect(handle).not.toHaveBeenCalled()
  })

  it('refuses a chunked body past the limit once the client sends no more of it', async () => {
    const { key, port } = await serving({ limits: { maxBodyBytes: 1000 } })
    const chunk = 'x'.repeat(600)
    const head = `POST /core/echo HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: bearer ${key}\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\n\r\n`
    // Two chunks pass the limit; the body never ends: after DISCARD_IDLE_MS of nothing, the
    // answer comes.
    const piece = `${chunk.length.toString(16)}\r\n${chunk}\r\n`
    const answer = await raw(port, head + piece + piece, (received) =>
      received.includes('\r\n\r\n'),
    )
    expect(answer).toMatch(/^HTTP\/1\.1 413 /)
    expect(answer.toLowerCase()).toContain('connection: close')
  })

  it('reads repeated headers as a Fetch Request does: joined', async () => {
    const { key, port } = await serving()
    const answer = await raw(
      port,
      `POST /core/ping HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: bearer ${key}\r\nauthorization: bearer other\r\nconnection: close\r\n\r\n`,
    )
    expect(answer).toMatch(/^HTTP\/1\.1 401 /)
    expect(answer).toContain("the authorization header must be `bearer <token>'")
  })

  it('reads paths the URL parser would rewrite as it does, answering alike', async () => {
    const { key, handle, port } = await serving()
    const answer = await raw(
      port,
      `POST /type/./string/reverse HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: bearer ${key}\r\ncontent-type: text/plain\r\ncontent-length: 5\r\nconnection: close\r\n\r\nhello`,
    )
    expect(answer).toMatch(/^HTTP\/1\.1 200 /)
    expect(answer.endsWith('olleh')).toBe(true)
    expect(handle).not.toHaveBeenCalled()
  })
})
