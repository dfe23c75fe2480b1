import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngine } from '../engine'
import {
  answer,
  RUBY_DECIMAL,
  array,
  decimal,
  map,
  str,
  timestamp32,
  timestamp64,
  timestamp96,
  tuples,
} from '../testing/msgpack-bytes'
import { listen, type Listener } from './http'
import { openSqliteStore } from '../storage/sql/sqlite-store'

/** Decimals and timestamps as the Ruby client sends them, over real HTTP, kept in SQLite. */
let server: Listener
let secret: string

beforeAll(async () => {
  const engine = createEngine({
    store: await openSqliteStore(':memory:'),
    serviceName: 'proc',
    baseUrl: 'http://any',
  })
  secret = (await engine.account.createSecret()).key
  server = await listen(engine, { port: 0 })
})

afterAll(() => server.close())

const MSGPACK = 'application/vnd.proc+msgpack'

async function post(name: string, body: Uint8Array, accept = MSGPACK) {
  const response = await fetch(`${server.url}/${name.split('.').join('/')}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': MSGPACK, accept },
    body: new Uint8Array(body),
  })
  const bytes = new Uint8Array(await response.arrayBuffer())
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: [...bytes],
    text: new TextDecoder().decode(bytes),
  }
}

const value = array(
  decimal(RUBY_DECIMAL),
  decimal('0.1234e1'),
  timestamp32(1_700_000_000),
  timestamp64(1_700_000_000, 123_456_789),
  timestamp96(-1n, 500_000_000),
  map(['$decimal', str('0.1e1')]),
)

describe('MessagePack extensions over HTTP', () => {
  it('core.echo answers them back byte for byte', async () => {
    const response = await post('core.echo', tuples(value))
    expect([response.status, response.type]).toEqual([200, MSGPACK])
    expect(response.bytes).toEqual([...answer(value)])
  })

  it('keyv keeps them in SQLite, byte for byte', async () => {
    expect((await post('keyv.set', tuples(str('k'), { value }))).bytes).toEqual([...answer([0xc3])])
    expect((await post('keyv.get', tuples(str('k')))).bytes).toEqual([...answer(value)])
  })

  it('answers them in JSON as a number with every digit and ISO 8601 strings', async () => {
    const response = await post('core.echo', tuples(value), 'application/vnd.proc+json')
    expect(response.text).toBe(
      `[["<<",[${RUBY_DECIMAL},0.1234e1,"2023-11-14T22:13:20Z","2023-11-14T22:13:20.123456789Z","1969-12-31T23:59:59.500Z",{"$decimal":"0.1e1"}]]]`,
    )
  })

  it('adds a decimal exactly', async () => {
    const response = await post('type.number.add', tuples(decimal(RUBY_DECIMAL), { value: [1] }))
    expect(response.bytes).toEqual([...answer(decimal('0.100000000000044298349238472398e15'))])
  })

  it('refuses another extension type with a 400 in the answer format', async () => {
    const response = await post('core.echo', tuples([0xd4, 0x05, 0x00]))
    expect(response.status).toBe(400)
    const message =
      'the MessagePack body holds extension type 5, which the service does not read; it reads decimals (type 0) and timestamps (type -1)'
    expect(response.bytes).toEqual(array(array(str('!!'), map(['message', str(message)]))))
  })
})
