import { decode, encode, ExtData } from '@msgpack/msgpack'
import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'

let h: Harness
beforeEach(async () => {
  h = await createHarness({ serviceName: 'proc', baseUrl: 'https://proc.run' })
})

const MSGPACK = 'application/vnd.proc+msgpack'

async function send(name: string, body: Uint8Array, accept = MSGPACK) {
  const response = await h.send(
    new Request(`${h.baseUrl}/${name.split('.').join('/')}`, {
      method: 'POST',
      headers: { authorization: `bearer ${h.secret.key}`, 'content-type': MSGPACK, accept },
      body: new Uint8Array(body),
    }),
  )
  const bytes = new Uint8Array(await response.arrayBuffer())
  return { status: response.status, type: response.headers.get('content-type'), bytes }
}

describe('application/vnd.<service>+msgpack', () => {
  it('carries the same tuple language, request and response', async () => {
    const proc = [
      '{}',
      ['>>', ['%%', 'foo']],
      ['()', 'type.string.reverse'],
      ['()', 'type.string.capitalize'],
    ]
    const response = await send('core.exec', encode([['$$', 'proc', proc]]))
    expect([response.status, response.type]).toEqual([200, MSGPACK])
    expect(decode(response.bytes)).toEqual([['<<', 'Oof']])
  })

  it('answers errors as !! tuples', async () => {
    const response = await send('type.string.truncate', encode([['>>', 'foo']]))
    expect(response.status).toBe(400)
    expect(decode(response.bytes)).toEqual([
      ['!!', { message: "invalid argument `length' for `type.string.truncate' (is required)" }],
    ])
  })

  it('can be asked for with accept, whatever the request format', async () => {
    const response = await h.call('type.string.upcase', { body: 'abc', accept: MSGPACK })
    expect(response.headers.get('content-type')).toBe(MSGPACK)
    const viaJson = await h.send(
      new Request(`${h.baseUrl}/type/string/upcase`, {
        method: 'POST',
        headers: { authorization: `bearer ${h.secret.key}`, accept: MSGPACK },
        body: 'abc',
      }),
    )
    expect(decode(new Uint8Array(await viaJson.arrayBuffer()))).toEqual([['<<', 'ABC']])
  })

  it('refuses malformed MessagePack, binary data and extension types it does not read', async () => {
    const garbage = await send('core.echo', new Uint8Array([0xc1]), 'text/plain')
    expect(garbage.status).toBe(400)
    expect(new TextDecoder().decode(garbage.bytes)).toMatch(/the body is not valid MessagePack/)
    const binary = await send('core.echo', encode([['>>', new Uint8Array([1, 2])]]), 'text/plain')
    expect([binary.status, new TextDecoder().decode(binary.bytes)]).toEqual([
      400,
      'the MessagePack body holds binary data, which has no JSON equivalent',
    ])
    const other = await send('core.echo', encode([['>>', new ExtData(5, new Uint8Array(1))]]))
    expect([other.status, decode(other.bytes)]).toEqual([
      400,
      [
        [
          '!!',
          {
            message:
              'the MessagePack body holds extension type 5, which the service does not read; it reads decimals (type 0) and timestamps (type -1)',
          },
        ],
      ],
    ])
  })

  it('answers values as deeply nested as a body may hold them', async () => {
    let deep: unknown = 1
    for (let i = 0; i < 254; i++) deep = [deep]
    const response = await send('core.echo', encode([['>>', deep]], { maxDepth: 300 }))
    expect(response.status).toBe(200)
    expect(decode(response.bytes)).toEqual([['<<', deep]])
  })

  it('reads an array of 125,000 elements', async () => {
    const many = new Array(125_000).fill(1)
    const response = await send('core.echo', encode([['>>', many]]))
    expect(response.status).toBe(200)
    expect((decode(response.bytes) as [[string, number[]]])[0][1]).toHaveLength(125_000)
  })

  it('refuses strings that are not valid UTF-8, as values and as map keys', async () => {
    const echo = (...tail: number[]) => new Uint8Array([0x91, 0x92, 0xa2, 0x3e, 0x3e, ...tail])
    const message = 'the MessagePack body holds a string that is not valid UTF-8'
    for (const body of [
      echo(0xa2, 0xff, 0xfe),
      echo(0xd9, 40, ...new Array(39).fill(0x61), 0xc3),
      echo(0x81, 0xa2, 0xff, 0xfe, 0x01),
    ]) {
      const response = await send('core.echo', body, 'text/plain')
      expect([response.status, new TextDecoder().decode(response.bytes)]).toEqual([400, message])
    }
    const valid = await send('core.echo', encode([['>>', { é: 'ü\u{1F600}' }]]))
    expect(decode(valid.bytes)).toEqual([['<<', { é: 'ü\u{1F600}' }]])
  })
})
