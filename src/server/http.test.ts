import { connect } from 'node:net'
import { describe, expect, it, vi } from 'vitest'
import { createEngine } from '../engine'
import { createMemoryStore } from '../storage'
import { listen } from './http'

describe('listen', () => {
  it('serves the engine on a free port and closes', async () => {
    const engine = createEngine({ store: createMemoryStore(), baseUrl: 'http://127.0.0.1' })
    const { key } = await engine.account.createSecret()
    const server = await listen(engine, { port: 0 })
    expect(server.port).toBeGreaterThan(0)
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`)

    const ping = () =>
      fetch(`${server.url}/core/ping`, {
        method: 'POST',
        headers: { authorization: `bearer ${key}` },
      })
    expect(await (await ping()).text()).toBe('true')
    expect(await (await fetch(`${server.url}/_account/clock`)).json()).toEqual({
      now: expect.any(Number),
      still: false,
    })

    await server.close()
    await expect(ping()).rejects.toThrow()
  })

  it('rejects when the port is taken', async () => {
    const engine = createEngine({ store: createMemoryStore(), baseUrl: 'http://127.0.0.1' })
    const first = await listen(engine, { port: 0 })
    await expect(listen(engine, { port: first.port })).rejects.toThrow(/EADDRINUSE/)
    await first.close()
  })

  it('answers what Node itself refuses in the engine’s error format', async () => {
    const engine = createEngine({ store: createMemoryStore(), baseUrl: 'http://127.0.0.1' })
    const server = await listen(engine, { port: 0 })
    const odd = await raw(server.port, 'BREW /core/ping HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n')
    expect(odd).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
    expect(JSON.parse(odd.split('\r\n\r\n')[1]!)).toEqual({
      error: { message: expect.stringMatching(/^the request is not well-formed HTTP\/1\.1/) },
    })
    const huge = await raw(
      server.port,
      `POST /core/ping?x=${'a'.repeat(20_000)} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`,
    )
    expect(huge).toMatch(/^HTTP\/1\.1 431 /)
    expect(huge).toContain('send long arguments in the body, not the query string')
    await server.close()
  })

  it('closes a keep-alive connection after a 413, so the unread body is not a request', async () => {
    const engine = createEngine({ store: createMemoryStore(), baseUrl: 'http://127.0.0.1' })
    const { key } = await engine.account.createSecret()
    const server = await listen(engine, { port: 0 })
    const body = 'x'.repeat(200_000)
    const answer = await raw(
      server.port,
      `POST /core/echo HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: bearer ${key}\r\ncontent-type: text/plain\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
    )
    expect(answer).toMatch(/^HTTP\/1\.1 413 /)
    expect(answer.toLowerCase()).toContain('connection: close')
    // Exactly one response on the connection: the rest of the body was not read as requests.
    expect(answer.match(/HTTP\/1\.1 /g)).toHaveLength(1)
    await server.close()
  })

  it('does not log a client that goes away mid-body as an engine fault', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const engine = createEngine({ store: createMemoryStore(), baseUrl: 'http://127.0.0.1' })
    const { key } = await engine.account.createSecret()
    // Told when the engine takes the request, and when it has answered it.
    let taken!: () => void
    let answered!: () => void
    const inEngine = new Promise<void>((resolve) => (taken = resolve))
    const done = new Promise<void>((resolve) => (answered = resolve))
    const watch =
      <A, R>(take: (arg: A) => Promise<R>) =>
      async (arg: A): Promise<R> => {
        taken()
        try {
          return await take(arg)
        } finally {
          answered()
        }
      }
    // An endpoint call is answered from node:http directly (`answer`), or through Fetch objects.
    const watched = { ...engine, handle: watch(engine.handle), answer: watch(engine.answer) }
    const server = await listen(watched, { port: 0 })
    const socket = connect(server.port, '127.0.0.1')
    await new Promise((resolve) => socket.once('connect', resolve))
    socket.write(
      `POST /core/echo HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: bearer ${key}\r\ncontent-type: text/plain\r\ncontent-length: 1000\r\n\r\nabc`,
    )
    await inEngine
    socket.destroy()
    await done
    expect(errors.mock.calls.filter(([first]) => String(first).includes('engine fault'))).toEqual(
      [],
    )
    errors.mockRestore()
    await server.close()
  })
})

/** Sends `text` on a fresh connection and reads everything until the server closes it. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text))
    let received = ''
    socket.on('data', (chunk) => (received += chunk.toString()))
    socket.on('end', () => resolve(received))
    socket.on('error', reject)
  })
}
