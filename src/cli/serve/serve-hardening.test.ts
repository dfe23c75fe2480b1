import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listening, serve, startServe, stopAll } from '../../testing/serve-process'

/** What an operator's `serve` refuses at the edges, through a real process over HTTP. */

const SECRET = 'hardening-secret-123'
const CONTROL = 'control-token-hardening-0123'
let url: string

beforeAll(async () => {
  url = await listening(serve(['--port', '0', '--secret', SECRET, '--control-token', CONTROL]))
}, 35_000)
afterAll(stopAll)

const vnd = 'application/vnd.service+json'

async function tuples(name: string, body: string, type = vnd) {
  const response = await fetch(`${url}/${name.split('.').join('/')}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRET}`, 'content-type': type, accept: 'text/plain' },
    body,
  })
  return { status: response.status, text: await response.text() }
}

const create = (args: Array<[string, unknown]>) =>
  tuples('auth.create', JSON.stringify(args.map(([name, value]) => ['$$', name, value])))

const control = (path: string, body?: string) =>
  fetch(`${url}/_account/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${CONTROL}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  })

describe('serve refuses at the edges', () => {
  it.each([
    'keyv??bucket=users',
    'keyv?bucket=users&',
    'keyv?bucket=%ZZ',
    'keyv?bucket=users;prefix=x',
  ])('the lenient ability %j', async (ability) => {
    const answer = await create([['abilities', [ability]]])
    expect(answer.status).toBe(400)
    expect(answer.text).toMatch(
      new RegExp(`^invalid ability ${JSON.stringify(ability).replace(/[?]/g, '\\?')}: `),
    )
  })

  it('a ttl that would mint an authorization already expired, and one past the last date', async () => {
    for (const ttl of [1e-9, 1e13]) {
      const answer = await create([
        ['abilities', ['core']],
        ['ttl', ttl],
      ])
      expect(answer.status).toBe(400)
      expect(answer.text).toMatch(
        /^invalid argument `ttl' for `auth.create' \(must be from 1 to \d+ seconds/,
      )
    }
  })

  it('integers past 2^53, in JSON and in MessagePack', async () => {
    const json = await tuples('core.echo', '[[">>", 12345678901234567891]]')
    expect(json).toEqual({
      status: 400,
      text: 'the body holds the number 12345678901234567891 at line 1, column 9, beyond ±9007199254740991 (2^53 − 1), which the service cannot carry exactly: send it as a string',
    })
    // [[">>", uint64 12345678901234567891]]
    const packed = new Uint8Array([
      0x91, 0x92, 0xa2, 0x3e, 0x3e, 0xcf, 0xab, 0x54, 0xa9, 0x8c, 0xeb, 0x1f, 0x0a, 0xd3,
    ])
    const msgpack = await fetch(`${url}/core/echo`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${SECRET}`,
        'content-type': 'application/vnd.service+msgpack',
        accept: 'text/plain',
      },
      body: packed,
    })
    expect([msgpack.status, await msgpack.text()]).toEqual([
      400,
      'the body holds the number 12345678901234567891, beyond ±9007199254740991 (2^53 − 1), which the service cannot carry exactly: send it as a string, or as a decimal (extension type 0)',
    ])
  })

  it('an import with what the API refuses, naming the field, and keeps the account', async () => {
    const exported = (await (await control('export')).json()) as {
      secrets: Array<Record<string, unknown>>
    }
    const hostile = { ...exported, secrets: [{ ...exported.secrets[0], id: 'a/b/../c' }] }
    const answer = await control('import', JSON.stringify(hostile))
    expect(answer.status).toBe(400)
    expect(await answer.json()).toEqual({
      error: {
        message:
          'invalid snapshot: secrets[0].id must be a secret id: sec_ and 1 to 64 of A-Z a-z 0-9 - _, not "a/b/../c"',
      },
    })
    const deep = JSON.stringify({ ...exported, meta: { signingKey: 'placeholder' } }).replace(
      '"placeholder"',
      '['.repeat(5000) + ']'.repeat(5000),
    )
    const nested = await control('import', deep)
    expect([nested.status, await nested.json()]).toEqual([
      400,
      { error: { message: 'invalid snapshot: meta.signingKey nests deeper than 256 levels' } },
    ])
    expect((await tuples('core.ping', '')).text).toBe('true')
  })

  it('feeds nothing from a call into a composition in its argument', async () => {
    const set = await tuples(
      'keyv.set',
      '[["$$","bucket","lengths"],["$$","key","k"],["$$","value",2]]',
    )
    expect(set.status).toBe(200)
    const body = JSON.stringify([
      ['>>', 'foo'],
      [
        '$$',
        'length',
        [
          '{}',
          [
            '()',
            'keyv.get',
            ['$$', 'bucket', ['%%', 'lengths']],
            ['$$', 'key', ['()', 'core.echo', ['>>', ['%%', 'k']]]],
          ],
        ],
      ],
    ])
    expect(await tuples('type.string.truncate', body)).toEqual({ status: 200, text: 'fo' })
  })

  it('a sum past 2^53 from type.number.add, rather than a rounded one', async () => {
    const add = (input: number, value: number) =>
      tuples(
        'type.number.add',
        JSON.stringify([
          ['>>', input],
          ['$$', 'value', value],
        ]),
      )
    expect(await add(9007199254740990, 1)).toEqual({ status: 200, text: '9007199254740991' })
    expect(await add(-9007199254740990, -1)).toEqual({ status: 200, text: '-9007199254740991' })
    expect(await add(9007199254740991, 2)).toEqual({
      status: 400,
      text: "the sum in `type.number.add' of 9007199254740991 and 2 is beyond ±9007199254740991 (2^53 − 1), which the service cannot carry exactly as a number: add them as decimals (MessagePack extension type 0) for an exact sum",
    })
  })
})

/** Sends `head` as written (request line and headers) and reads the whole answer. */
function raw(base: string, head: string): Promise<string> {
  const { hostname, port } = new URL(base)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname.replace(/^\[(.*)\]$/, '$1'))
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk.toString()))
    socket.on('end', () => resolve(answer))
    socket.on('error', reject)
    socket.end(`${head}\r\n\r\n`)
  })
}

describe('serve reads Host and the method as one rule', () => {
  const ping = (host: string | null) =>
    raw(
      url,
      [
        'POST /core/ping HTTP/1.1',
        ...(host === null ? [] : [`Host: ${host}`]),
        `Authorization: Bearer ${SECRET}`,
        'Content-Length: 0',
        'Connection: close',
      ].join('\r\n'),
    )

  it('answers every spelling of a loopback name, IPv6 included', async () => {
    const { port } = new URL(url)
    for (const host of [
      `127.0.0.1:${port}`,
      '127.0.0.1',
      `localhost:${port}`,
      'LOCALHOST',
      `[::1]:${port}`,
      '[::1]',
      '[0:0:0:0:0:0:0:1]',
    ]) {
      expect(await ping(host), host).toMatch(/^HTTP\/1\.1 200 [^]*\r\n\r\ntrue$/)
    }
  })

  it('refuses an empty Host with 400, and a name that is not its own with 403', async () => {
    const empty = await ping('')
    expect(empty).toMatch(/^HTTP\/1\.1 400 /)
    expect(empty).toContain(
      '{"error":{"message":"the request names no host: send a Host header naming this server, such as the host and port of the URL serve printed"}}',
    )
    for (const host of ['evil.example', '127.0.0.1.evil.example', '[::2]', 'localhost.:1']) {
      expect(await ping(host), host).toMatch(/^HTTP\/1\.1 403 /)
    }
    // Not a host name at all: refused before anything reads it as one.
    expect(await ping('evil@127.0.0.1')).toMatch(/^HTTP\/1\.1 40[03] /)
  })

  it('refuses a second Host with 400, whichever names it, and closes the connection', async () => {
    const { host } = new URL(url)
    for (const second of [host, 'evil.example']) {
      const answer = await raw(
        url,
        [
          'POST /core/ping HTTP/1.1',
          `Host: ${host}`,
          `Host: ${second}`,
          `Authorization: Bearer ${SECRET}`,
          'Content-Length: 0',
        ].join('\r\n'),
      )
      expect(answer).toMatch(/^HTTP\/1\.1 400 /)
      expect(answer.toLowerCase()).toContain('\r\nconnection: close\r\n')
      expect(answer).toContain(
        '{"error":{"message":"the request gives 2 Host headers: send one, naming this server"}}',
      )
    }
  })

  it('answers CONNECT with 405, as any method but POST', async () => {
    const { host } = new URL(url)
    const answer = await raw(url, `CONNECT ${host} HTTP/1.1\r\nHost: ${host}`)
    expect(answer).toMatch(/^HTTP\/1\.1 405 /)
    expect(answer.toLowerCase()).toContain('\r\nallow: post\r\n')
    expect(answer).toContain('{"error":{"message":"method not allowed; use POST"}}')
  })

  it.each(['::1', '[::1]'])(
    'listens on --host %s, and answers there',
    async (host) => {
      const started = await startServe(['--host', host, '--secret', SECRET])
      expect(started.url).toMatch(/^http:\/\/\[::1\]:\d+$/)
      const answer = await fetch(`${started.url}/core/ping`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SECRET}` },
      })
      expect([answer.status, await answer.text()]).toEqual([200, 'true'])
    },
    35_000,
  )
})

// Each test moves tens of megabytes over loopback: a second quiet, several on a loaded machine.
describe('serve reads a body past its limit before it answers 413', { timeout: 30_000 }, () => {
  // fetch (undici) writes the whole body before it reads an answer: a 413 sent before the body
  // is read, with the connection closed under it, met EPIPE or ECONNRESET nine times in ten.
  const big = 10_000_000
  const refused = 'request size exceeded the allowed 131072 bytes'

  it.each([
    ['text/plain', 'x'.repeat(big), refused],
    [vnd, JSON.stringify([['>>', 'x'.repeat(big)]]), `[["!!",{"message":"${refused}"}]]`],
    ['application/vnd.service+msgpack', new Uint8Array(big), undefined],
  ])('a 10 MB %s body, three times', async (type, body, text) => {
    for (let i = 0; i < 3; i++) {
      const answer = await fetch(`${url}/core/echo`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SECRET}`, 'content-type': type, accept: type },
        body,
      })
      expect(answer.status).toBe(413)
      const answered = new Uint8Array(await answer.arrayBuffer())
      if (text !== undefined) expect(new TextDecoder().decode(answered)).toBe(text)
      else expect(Buffer.from(answered).toString('latin1')).toContain(refused)
    }
  })

  it('a 10 MB body of no declared length, sent as it is made', async () => {
    const chunk = new Uint8Array(1_000_000).fill(120)
    let sent = 0
    const answer = await fetch(`${url}/core/echo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'text/plain' },
      body: new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 10) controller.enqueue(chunk)
          else controller.close()
        },
      }),
      duplex: 'half',
    } as RequestInit)
    expect([answer.status, await answer.text()]).toEqual([413, refused])
  })

  it("an 18 MiB body to the control plane's coverage, past its 16 MiB", async () => {
    for (let i = 0; i < 2; i++) {
      const answer = await control(
        'coverage',
        JSON.stringify({ padding: 'x'.repeat(18 * 2 ** 20) }),
      )
      expect(answer.status).toBe(413)
      expect(await answer.json()).toEqual({
        error: { message: `request size exceeded the allowed ${16 * 2 ** 20} bytes` },
      })
    }
    // The server answers on, and the next request on a new connection is its own.
    const ping = await tuples('core.ping', '[]')
    expect(ping).toEqual({ status: 200, text: 'true' })
  })
})
