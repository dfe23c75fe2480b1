import { connect } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Reply } from '../engine'
import { listenWith, type Answer, type Listener } from './listener'

let server: Listener | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const start = async (answer: Answer, name?: string) =>
  (server = await listenWith(answer, { port: 0, ...(name ? { name } : {}) }))

/** Sends `text` on a new connection; resolves with all that comes back until it closes. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text))
    let got = ''
    socket.on('data', (chunk: Buffer) => (got += chunk.toString('latin1')))
    socket.on('close', () => resolve(got))
    socket.on('error', reject)
  })
}

/** A chunked body's pieces, up to its last (empty) one. */
function dechunk(body: string): string[] {
  const pieces: string[] = []
  let at = 0
  for (;;) {
    const end = body.indexOf('\r\n', at)
    const size = parseInt(body.slice(at, end), 16)
    if (!(size > 0)) return pieces
    pieces.push(body.slice(end + 2, end + 2 + size))
    at = end + 2 + size + 2
  }
}

describe('listenWith', () => {
  it('writes a streamed answer as it comes: its headers in their order and case, then each piece', async () => {
    let cancelled = false
    const { port } = await start(async (call) => ({
      status: 201,
      statusMessage: 'Made',
      headers: [
        ['X-First', 'one'],
        ['x-second', 'two'],
        ['X-First', 'again'],
      ],
      body: (async function* () {
        yield new TextEncoder().encode(`${call.method} ${call.pathname}${call.search};`)
        yield new TextEncoder().encode(new TextDecoder().decode(await call.body(100)))
      })(),
      cancel: () => (cancelled = true),
    }))
    const answer = await raw(
      port,
      'POST /a/b?c=d HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 5\r\nconnection: close\r\n\r\nhello',
    )
    const [head, body] = answer.split('\r\n\r\n')
    expect(head!.split('\r\n').slice(0, 4)).toEqual([
      'HTTP/1.1 201 Made',
      'X-First: one',
      'x-second: two',
      'X-First: again',
    ])
    // No length given: chunked, as the answer came.
    expect(head).toMatch(/\r\nTransfer-Encoding: chunked/)
    expect(dechunk(body!)).toEqual(['POST /a/b?c=d;', 'hello'])
    expect(cancelled).toBe(false)
  })

  it('closes the connection mid-answer when a streamed body breaks off', async () => {
    const { port } = await start(async () => ({
      status: 200,
      headers: [['content-length', '10']],
      body: (async function* () {
        yield new TextEncoder().encode('12345')
        // Later, as an upstream breaks off: what was sent has reached the client by then.
        await new Promise((resolve) => setTimeout(resolve, 50))
        throw new Error('the upstream went away')
      })(),
      cancel: () => {},
    }))
    const answer = await raw(port, 'GET / HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n')
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n12345$/)
  })

  it('does a reply’s drop fault: the connection closes with no answer', async () => {
    const dropped: Reply = {
      status: 0,
      headers: {},
      body: '',
      fault: { kind: 'network', delayMs: 0, ending: 'drop' },
    }
    const { port } = await start(async () => dropped)
    expect(await raw(port, 'POST /x HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n')).toBe('')
  })

  it('answers a rejected answer 500, logged under its name; a foreign Host before any answer', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const asked: string[] = []
    const { port } = await start(async (call) => {
      asked.push(call.pathname)
      throw new Error('broken')
    }, 'shadow')
    try {
      const failed = await raw(
        port,
        'POST /x HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n',
      )
      expect(failed).toMatch(/^HTTP\/1\.1 500 /)
      expect(errors.mock.calls.map(([first]) => first)).toEqual(['shadow fault:'])
      const foreign = await raw(
        port,
        'POST /y HTTP/1.1\r\nhost: example.com\r\nconnection: close\r\n\r\n',
      )
      expect(foreign).toMatch(/^HTTP\/1\.1 403 /)
      expect(asked).toEqual(['/x'])
    } finally {
      errors.mockRestore()
    }
  })
})
