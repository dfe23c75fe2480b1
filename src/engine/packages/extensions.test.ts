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

describe('decimals and timestamps in keyv', () => {
  it('are stored and read back byte for byte, nested, beside objects that look like tags', async () => {
    const value = array(
      decimal(RUBY_DECIMAL),
      timestamp32(1_700_000_000),
      timestamp64(1_700_000_000, 123_456_789),
      timestamp96(-1n, 1),
      map(['$decimal', str('0.1e1')], ['n', decimal('-0.0')]),
      map(['$decimal', str('0.1e1')]),
      map(['$timestamp', str('2023-11-14T22:13:20Z')]),
      map(['$escape', map(['$escape', str('x')])]),
    )
    const set = await send('keyv.set', tuples(str('k'), { value }))
    expect([set.status, set.bytes]).toEqual([200, [...answer([0xc3])]])
    const got = await send('keyv.get', tuples(str('k')))
    expect(got.bytes).toEqual([...answer(value)])
  })

  it('are read back as a JSON number with every digit and an ISO 8601 string', async () => {
    const value = array(decimal(RUBY_DECIMAL), timestamp64(1_700_000_000, 500_000_000))
    await send('keyv.set', tuples(str('k'), { value }))
    const got = await send('keyv.get', tuples(str('k')), 'application/json')
    expect(got.text).toBe(`[${RUBY_DECIMAL},"2023-11-14T22:13:20.500Z"]`)
  })

  it('are written within the request’s own overlay, and seen by its later calls', async () => {
    const proc = array(
      str('{}'),
      array(
        str('()'),
        str('keyv.set'),
        array(str('>>'), str('k')),
        array(str('$$'), str('value'), decimal(RUBY_DECIMAL)),
      ),
      array(str('()'), str('keyv.get'), array(str('>>'), str('k'))),
    )
    const response = await send('core.exec', tuples(undefined, { proc }))
    expect(response.bytes).toEqual([...answer(decimal(RUBY_DECIMAL))])
  })
})

describe('a decimal in a stored procedure', () => {
  it('is kept as a decimal literal, byte for byte', async () => {
    const proc = array(
      str('{}'),
      array(
        str('()'),
        str('core.echo'),
        array(str('>>'), array(decimal(RUBY_DECIMAL), timestamp32(1))),
      ),
    )
    const created = await send('proc.create', tuples(undefined, { name: str('keep'), proc }))
    expect(created.status, created.text).toBe(200)
    const called = await send('lib.keep', tuples(undefined))
    expect(called.bytes).toEqual([...answer(array(decimal(RUBY_DECIMAL), timestamp32(1)))])
  })
})

describe('type.number.add', () => {
  it('adds exactly, answering a decimal, when either number is one', async () => {
    const cases: Array<[number[], number[], string]> = [
      [decimal(RUBY_DECIMAL), decimal('0.1e1'), '0.100000000000044298349238472398e15'],
      [
        decimal('0.1e1'),
        [0xcb, ...new Uint8Array(new Float64Array([0.5]).buffer).reverse()],
        '0.15e1',
      ],
      [[0x01], decimal('0.2e-20'), '0.1000000000000000000002e1'],
      [decimal('-0.15e1'), decimal('0.15e1'), '0.0'],
      [decimal('0.1e300'), decimal('-0.1e-300'), `0.${'9'.repeat(600)}e299`],
    ]
    for (const [input, value, sum] of cases) {
      const response = await send('type.number.add', tuples(input, { value }))
      expect([sum, response.bytes]).toEqual([sum, [...answer(decimal(sum))]])
      const json = await send('type.number.add', tuples(input, { value }), 'application/json')
      expect(json.text).toBe(sum)
    }
  })

  it('adds plain numbers as numbers, as before', async () => {
    const response = await send('type.number.add', tuples([0x01], { value: [0x02] }))
    expect(response.bytes).toEqual([...answer([0x03])])
  })

  it('refuses a sum that would take more than 1000 digits, and a decimal beyond a double’s range', async () => {
    const long = await send(
      'type.number.add',
      tuples(decimal('0.1e300'), { value: decimal('0.1e-800') }),
      'text/plain',
    )
    expect([long.status, long.text]).toEqual([
      400,
      "the exact sum in `type.number.add' would take more than 1000 digits",
    ])
    const huge = await send(
      'type.number.add',
      tuples(decimal('0.1e400'), { value: [0x01] }),
      'text/plain',
    )
    expect([huge.status, huge.text]).toEqual([
      400,
      "proc `type.number.add' does not accept the given input",
    ])
  })

  it('refuses a timestamp, which is not a number', async () => {
    const response = await send(
      'type.number.add',
      tuples(timestamp32(1), { value: [0x01] }),
      'text/plain',
    )
    expect([response.status, response.text]).toEqual([
      400,
      "proc `type.number.add' does not accept the given input",
    ])
  })
})

describe('declared types', () => {
  it('take a whole decimal as an integer, and nothing else', async () => {
    const three = await send(
      'type.string.truncate',
      tuples(str('foobar'), { length: decimal('0.3e1') }),
      'text/plain',
    )
    expect([three.status, three.text]).toEqual([200, 'foo'])
    const half = await send(
      'type.string.truncate',
      tuples(str('foobar'), { length: decimal('0.35e1') }),
      'text/plain',
    )
    expect([half.status, half.text]).toEqual([
      400,
      "invalid argument `length' for `type.string.truncate' (given value could not be coerced into the defined type)",
    ])
  })

  it('take a decimal as a number where an endpoint wants a double', async () => {
    const before = h.clock.now()
    const slept = await send(
      'core.sleep',
      tuples(str('x'), { seconds: decimal('0.15e1') }),
      'text/plain',
    )
    expect([slept.status, slept.text]).toEqual([200, 'x'])
    expect(h.clock.now() - before).toBeGreaterThanOrEqual(1500)
  })

  it('never take a decimal or a timestamp as a string or an object', async () => {
    for (const value of [decimal('0.1e1'), timestamp32(1)]) {
      const text = await send('type.string.upcase', tuples(value), 'text/plain')
      expect([text.status, text.text]).toEqual([
        400,
        "proc `type.string.upcase' does not accept the given input",
      ])
      // An object input would supply core.ping's arguments: a decimal is not one.
      expect((await send('core.ping', tuples(value))).bytes).toEqual([...answer([0xc3])])
    }
  })
})
