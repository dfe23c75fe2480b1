import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})

const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels)
const message = (response: { json(): unknown }) =>
  (response.json() as [[string, { message: string }]])[0][1].message

describe('the depth limit, on every value wherever it was made', () => {
  it('refuses a text/plain input to an array endpoint nested deeper than 256 levels', async () => {
    const response = await h.call('type.array.flatten', { body: deep(10_000) })
    expect([response.status, response.text]).toEqual([
      400,
      'the value nests deeper than 256 levels',
    ])
    const fine = await h.call('type.array.flatten', { body: deep(256), accept: 'application/json' })
    expect([fine.status, fine.text]).toEqual([200, '[]'])
  })

  it('refuses a query string argument nested deeper than 256 levels', async () => {
    const response = await h.call('auth.create', { query: { abilities: deep(10_000) } })
    expect([response.status, response.text]).toEqual([
      400,
      'the value nests deeper than 256 levels',
    ])
  })

  it('refuses a reference typed array or object nested deeper than 256 levels', async () => {
    for (const [type, text] of [
      ['array', deep(10_000)],
      ['object', '{"a":'.repeat(5000) + '1' + '}'.repeat(5000)],
    ]) {
      const response = await h.tuples('core.echo', [['>>', ['@@', 'v', { type }]]], {
        query: { v: text! },
      })
      expect(response.status).toBe(400)
      expect(message(response)).toBe('the value nests deeper than 256 levels')
    }
  })

  it('never stores a value deeper than the limit, so keyv.get and export keep working', async () => {
    const token = await h.authorize({ abilities: ['keyv?bucket=b'] })
    const response = await h.tuples(
      'keyv.set',
      [
        ['>>', 'k'],
        ['$$', 'bucket', 'b'],
        ['$$', 'value', ['@@', 'v', { type: 'array' }]],
      ],
      { token, query: { v: deep(2500) } },
    )
    expect(response.status).toBe(400)
    expect((await h.call('keyv.get', { token, body: 'k', query: { bucket: 'b' } })).text).toBe(
      'null',
    )
    expect((await h.control('export')).status).toBe(200)
  })

  it('refuses an imported value nested deeper than the limit, naming it', async () => {
    const exported = (await h.control('export')).body as Record<string, unknown>
    const value = JSON.parse(deep(300)) as unknown
    const response = await h.control('import', {
      ...exported,
      keyv: [{ bucket: 'default', key: 'k', value }],
    })
    expect(response).toEqual({
      status: 400,
      body: { error: { message: 'invalid snapshot: keyv[0].value nests deeper than 256 levels' } },
    })
  })
})

describe('numbers out of range', () => {
  it('refuses an operand past 2^53 before any sum could overflow', async () => {
    const response = await h.tuples('type.number.add', [
      ['>>', 1e308],
      ['$$', 'value', 1e308],
    ])
    expect(response.status).toBe(400)
    expect(message(response)).toMatch(
      /^the body holds the number 1e\+308 at line 1, column 8, beyond/,
    )
  })

  it('refuses a body number JSON cannot carry', async () => {
    const response = await h.call('core.echo', { body: '[1e400]', contentType: 'application/json' })
    expect([response.status, response.text]).toEqual([
      400,
      '{"error":{"message":"the body holds a number out of range"}}',
    ])
  })
})

describe('numbers read from text', () => {
  it('are decimal: "0x10", "0b1", "0o7" and "Infinity" are refused', async () => {
    for (const ttl of ['0x10', '0b1', '0o7', 'Infinity', '1e400', '1_000', '']) {
      const response = await h.call('auth.create', { query: { abilities: 'core', ttl } })
      expect([ttl, response.status]).toEqual([ttl, 400])
    }
    for (const [value, sum] of [
      ['16', '17'],
      ['-1.5', '-0.5'],
      ['.5', '1.5'],
      ['2e3', '2001'],
      [' 7 ', '8'],
    ]) {
      const response = await h.tuples('type.number.add', [['>>', 1]], {
        query: { value: value! },
        accept: 'text/plain',
      })
      expect([value, response.text]).toEqual([value, sum])
    }
  })
})
