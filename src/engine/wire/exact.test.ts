import { decode, encode } from '@msgpack/msgpack'
import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})

const RANGE = 'beyond ±9007199254740991 (2^53 − 1), which the service cannot carry exactly'

const json = (body: string) =>
  h.call('core.echo', { body, contentType: 'application/json', accept: 'application/json' })

/** A MessagePack body `[[">>", <value>]]` with the value's bytes as given. */
function packedInput(valueBytes: number[]): Uint8Array {
  return new Uint8Array([0x91, 0x92, 0xa2, 0x3e, 0x3e, ...valueBytes])
}

async function msgpack(body: Uint8Array) {
  const type = `application/vnd.${h.serviceName}+msgpack`
  const response = await h.engine.handle(
    new Request(`${h.baseUrl}/core/echo`, {
      method: 'POST',
      headers: { authorization: `bearer ${h.secret.key}`, 'content-type': type, accept: type },
      body: new Uint8Array(body),
    }),
  )
  const [[marker, value]] = decode(new Uint8Array(await response.arrayBuffer())) as [
    [string, unknown],
  ]
  return { status: response.status, marker, value }
}

describe('integers beyond 2^53 in JSON', () => {
  it('refuses one, quoting it as written and saying where', async () => {
    const answer = await json('{"id": 12345678901234567891}')
    expect([answer.status, answer.json()]).toEqual([
      400,
      {
        error: {
          message: `the body holds the number 12345678901234567891 at line 1, column 8, ${RANGE}: send it as a string`,
        },
      },
    ])
    // Written as text: in the test itself the number would already be rounded.
    const tuples = await h.call('core.echo', {
      body: '[[">>", ["%%", [1, -9007199254740993]]]]',
      contentType: h.vnd,
      accept: 'text/plain',
    })
    expect([tuples.status, tuples.text]).toEqual([
      400,
      `the body holds the number -9007199254740993 at line 1, column 20, ${RANGE}: send it as a string`,
    ])
  })

  it('refuses a number written with an exponent that lands past 2^53', async () => {
    const answer = await json('[1e20]')
    expect(answer.status).toBe(400)
    expect(answer.text).toContain('the number 1e20 at line 1, column 2')
  })

  it('carries every integer up to 2^53 − 1 exactly, and digits in strings as they are', async () => {
    const body = '[9007199254740991,-9007199254740991,"12345678901234567891",0.1234567890123456789]'
    const answer = await json(body)
    expect([answer.status, answer.text]).toEqual([
      200,
      '[9007199254740991,-9007199254740991,"12345678901234567891",0.12345678901234568]',
    ])
  })

  it('refuses a query argument read as a number past 2^53', async () => {
    const answer = await h.call('type.number.add', {
      body: '1',
      query: { value: '12345678901234567891' },
    })
    expect([answer.status, answer.text]).toEqual([
      400,
      "invalid argument `value' for `type.number.add' (given value could not be coerced into the defined type)",
    ])
  })
})

describe('integers beyond 2^53 in MessagePack', () => {
  const uint64 = (value: bigint) => {
    const bytes = new DataView(new ArrayBuffer(8))
    bytes.setBigUint64(0, value)
    return [0xcf, ...new Uint8Array(bytes.buffer)]
  }
  const int64 = (value: bigint) => {
    const bytes = new DataView(new ArrayBuffer(8))
    bytes.setBigInt64(0, value)
    return [0xd3, ...new Uint8Array(bytes.buffer)]
  }

  it('refuses a uint64 or int64 past 2^53 − 1, quoting it exactly', async () => {
    for (const [bytes, written] of [
      [uint64(12345678901234567891n), '12345678901234567891'],
      [uint64(9007199254740992n), '9007199254740992'],
      [int64(-9007199254740993n), '-9007199254740993'],
    ] as const) {
      expect(await msgpack(packedInput([...bytes]))).toEqual({
        status: 400,
        marker: '!!',
        value: {
          message: `the body holds the number ${written}, ${RANGE}: send it as a string, or as a decimal (extension type 0)`,
        },
      })
    }
  })

  it('refuses a float64 past 2^53', async () => {
    const answer = await msgpack(packedInput([...encode(1e20)]))
    expect(answer.status).toBe(400)
    expect(answer.value).toEqual({
      message: expect.stringContaining('the number 100000000000000000000,'),
    })
  })

  it('carries a uint64 or int64 within 2^53 − 1 exactly, as a number', async () => {
    for (const value of [9007199254740991n, 5n]) {
      expect(await msgpack(packedInput(uint64(value)))).toEqual({
        status: 200,
        marker: '<<',
        value: Number(value),
      })
    }
    expect(await msgpack(packedInput(int64(-9007199254740991n)))).toMatchObject({
      status: 200,
      value: -9007199254740991,
    })
  })
})
