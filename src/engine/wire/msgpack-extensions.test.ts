import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'
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
  sendMsgpack,
  tuples,
} from '../../testing/msgpack-bytes'

let h: Harness
beforeEach(async () => {
  h = await createHarness({ serviceName: 'proc', baseUrl: 'https://proc.run' })
})

/** A MessagePack call to the harness, answered in MessagePack unless `accept` says otherwise. */
const send = (name: string, body: Uint8Array, accept?: string) =>
  sendMsgpack(h, name, body, accept ? { accept } : {})

/** What the Ruby client sends: every form of both extensions the service reads. */
const rubyValues: Array<[string, number[], string]> = [
  ['a decimal (ext8)', decimal(RUBY_DECIMAL), RUBY_DECIMAL],
  ['a decimal of 4 bytes (fixext 4)', decimal('-0.0'), '-0.0'],
  ['a decimal of 8 bytes (fixext 8)', decimal('0.1234e1'), '0.1234e1'],
  ['a timestamp in 32 bits', timestamp32(1_700_000_000), '"2023-11-14T22:13:20Z"'],
  [
    'a timestamp in 64 bits',
    timestamp64(1_700_000_000, 123_456_789),
    '"2023-11-14T22:13:20.123456789Z"',
  ],
  ['a timestamp in 64 bits, whole', timestamp64(2 ** 33, 0), '"2242-03-16T12:56:32Z"'],
  [
    'a timestamp in 96 bits, before 1970',
    timestamp96(-1n, 500_000_000),
    '"1969-12-31T23:59:59.500Z"',
  ],
  [
    'a timestamp in 96 bits, past 2514',
    timestamp96(2n ** 34n, 120_000),
    '"2514-05-30T01:53:04.000120Z"',
  ],
]

describe('MessagePack extensions, as the Ruby client sends them', () => {
  it.each(rubyValues)('core.echo answers %s back byte for byte', async (_, value) => {
    const response = await send('core.echo', tuples(value))
    expect(response.status, response.text).toBe(200)
    expect(response.bytes).toEqual([...answer(value)])
  })

  it.each(rubyValues)('writes %s in JSON, in tuples and as text', async (_, value, json) => {
    const bare = await send('core.echo', tuples(value), 'application/json')
    expect(bare.text).toBe(json)
    const tupled = await send('core.echo', tuples(value), 'application/vnd.proc+json')
    expect(tupled.text).toBe(`[["<<",${json}]]`)
    const text = await send('core.echo', tuples(value), 'text/plain')
    expect(text.text).toBe(json)
  })

  it('keeps them, byte for byte, inside arrays and maps, next to an object that looks like a tag', async () => {
    const value = array(
      decimal(RUBY_DECIMAL),
      map(['at', timestamp64(1_700_000_000, 1)], ['$decimal', str('1')]),
      map(['$escape', map(['$timestamp', str('x')])]),
    )
    const response = await send('core.echo', tuples(value))
    expect(response.bytes).toEqual([...answer(value)])
    const json = await send('core.echo', tuples(value), 'application/json')
    expect(json.text).toBe(
      `[${RUBY_DECIMAL},{"at":"2023-11-14T22:13:20.000000001Z","$decimal":"1"},{"$escape":{"$timestamp":"x"}}]`,
    )
  })

  it('writes a non-minimal timestamp back in its smallest form, as Ruby would have sent it', async () => {
    const response = await send('core.echo', tuples(timestamp96(1_700_000_000n, 0)))
    expect(response.bytes).toEqual([...answer(timestamp32(1_700_000_000))])
  })

  it('refuses other extension types and malformed ones with a 400 that says what is wrong', async () => {
    const refused: Array<[number[], string]> = [
      [
        [0xd4, 0x05, 0x00],
        'the MessagePack body holds extension type 5, which the service does not read; it reads decimals (type 0) and timestamps (type -1)',
      ],
      [
        [0xd5, 0xfe, 0x00, 0x00],
        'the MessagePack body holds extension type -2, which the service does not read; it reads decimals (type 0) and timestamps (type -1)',
      ],
      [
        decimal('NaN'),
        'the MessagePack body holds a decimal (extension type 0) written "NaN", which is not a number; write it as BigDecimal#to_s does, such as "0.1e1"',
      ],
      [
        [0xc7, 5, 0xff, 0, 0, 0, 0, 1],
        'the MessagePack body holds a timestamp (extension type -1) of 5 bytes; a timestamp takes 4, 8 or 12',
      ],
      [
        timestamp96(0n, 1_000_000_000),
        'the MessagePack body holds a timestamp (extension type -1) with 1000000000 nanoseconds; at most 999999999',
      ],
      [
        timestamp64(0, 2 ** 30 - 1),
        'the MessagePack body holds a timestamp (extension type -1) with 1073741823 nanoseconds; at most 999999999',
      ],
    ]
    for (const [value, message] of refused) {
      const response = await send('core.echo', tuples(value), 'text/plain')
      expect([response.status, response.text]).toEqual([400, message])
    }
  })

  it('holds them to the depth limit like any value', async () => {
    const nested = (levels: number) => {
      let value = decimal('0.1e1')
      for (let i = 0; i < levels; i++) value = array(value)
      return value
    }
    // The body's array and the tuple are two levels: 254 more arrays reach the 256th.
    expect((await send('core.echo', tuples(nested(254)))).status).toBe(200)
    const response = await send('core.echo', tuples(nested(255)), 'text/plain')
    expect([response.status, response.text]).toEqual([400, 'the body nests deeper than 256 levels'])
  })
})
