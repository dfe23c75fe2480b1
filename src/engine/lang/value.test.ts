import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { measure } from '../runtime/size'
import { addDecimals, asDecimal, Decimal, MAX_SUM_DIGITS } from './decimal'
import { jsonText } from './json-text'
import { fromStored, toStored } from './stored'
import { Timestamp } from './timestamp'
import type { Value } from './value'

const decimal = (text: string) => Decimal.parse(text)!

const decimals = fc
  .tuple(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.integer({ min: -60, max: 60 }))
  .map(([digits, exponent]) => decimal(`${digits}e${exponent}`))

const timestamps = fc
  .tuple(
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
    fc.integer({ min: 0, max: 999_999_999 }),
  )
  .map(([seconds, nanoseconds]) => Timestamp.of(seconds, nanoseconds)!)

/** Values with both extensions and objects that look like the store's tags. */
const { value: values } = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    // JSON has no -0 (it writes 0), so a value that holds one is not stored as it is: left out.
    fc.jsonValue({ maxDepth: 1 }).map((json) => JSON.parse(JSON.stringify(json)) as Value),
    decimals,
    timestamps,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.constantFrom('$decimal', '$timestamp', '$escape', 'a', '__proto__'),
      tie('value'),
      { maxKeys: 2 },
    ),
    fc
      .tuple(fc.constantFrom('$decimal', '$timestamp', '$escape'), fc.string())
      .map(([key, text]) => ({ [key]: text })),
  ),
}))

describe('Decimal', () => {
  it('reads what BigDecimal#to_s writes, and JSON numbers, nothing else', () => {
    for (const text of ['0.1e1', '-0.5e-2', '0.0', '-0.0', '12.5', '1E+21', RUBY]) {
      expect(Decimal.parse(text)?.text).toBe(text)
    }
    for (const text of ['NaN', 'Infinity', '-Infinity', '+1', '.5', '1.', '01', '1e', '', ' 1']) {
      expect([text, Decimal.parse(text)]).toEqual([text, undefined])
    }
  })

  it('adds exactly, written as BigDecimal#to_s writes a sum', () => {
    expect(addDecimals(decimal(RUBY), decimal('1'))?.text).toBe(
      '0.100000000000044298349238472398e15',
    )
    expect(addDecimals(asDecimal(0.1), asDecimal(0.2))?.text).toBe('0.3e0')
    expect(addDecimals(decimal('-2'), decimal('0.5'))?.text).toBe('-0.15e1')
    expect(addDecimals(decimal('0.5e-3'), decimal('0'))?.text).toBe('0.5e-3')
    expect(addDecimals(decimal('1e999'), decimal('1e-999'))).toBeUndefined()
    expect(MAX_SUM_DIGITS).toBe(1000)
  })

  it('undoes a sum by adding its negation', () => {
    const negate = (d: Decimal) => decimal(d.text.startsWith('-') ? d.text.slice(1) : `-${d.text}`)
    fc.assert(
      fc.property(decimals, decimals, (x, y) => {
        const sum = addDecimals(x, y)!
        expect(addDecimals(sum, negate(y))!.text).toBe(addDecimals(x, decimal('0'))!.text)
        // Doubles lose digits when x and y nearly cancel: each rounding is within half an
        // epsilon of what it rounds, so the double sum is within that of the operands' sizes.
        const [nx, ny] = [Number(x.text), Number(y.text)]
        const double = nx + ny
        const error = Number.EPSILON * (Math.abs(nx) + Math.abs(ny) + Math.abs(double))
        expect(Math.abs(Number(sum.text) - double)).toBeLessThanOrEqual(error)
      }),
      {
        // Nearly cancelling: their double sum keeps none of the exact sum's digits.
        examples: [
          [
            decimal('9999997825652933332726632768044649404171e2'),
            decimal('-9999999105912102694141448856731328058492e2'),
          ],
        ],
      },
    )
  })

  it('is a number as an integer only when whole', () => {
    expect(decimal('0.3e1').toSafeInteger()).toBe(3)
    expect(decimal('-0.0').toSafeInteger()).toBe(-0)
    expect(decimal('0.35e1').toSafeInteger()).toBeUndefined()
    expect(decimal('0.30000000000000000001e1').toSafeInteger()).toBeUndefined()
    expect(decimal('0.9007199254740993e16').toSafeInteger()).toBeUndefined()
  })
})

describe('Timestamp', () => {
  it('writes ISO 8601 as Date does, with its nanoseconds', () => {
    fc.assert(
      fc.property(
        // Date reaches 8.64e15 ms either side of 1970: one second short of that, any milliseconds fit.
        fc.integer({ min: -8_639_999_999_999, max: 8_639_999_999_999 }),
        fc.integer({ min: 0, max: 999 }),
        (seconds, milliseconds) => {
          const iso = Timestamp.of(BigInt(seconds), milliseconds * 1_000_000)!.toISOString()
          const date = new Date(seconds * 1000 + milliseconds).toISOString()
          expect(iso).toBe(milliseconds === 0 ? date.replace('.000Z', 'Z') : date)
        },
      ),
    )
    expect(Timestamp.of(1_700_000_000n, 123_456_789)!.toISOString()).toBe(
      '2023-11-14T22:13:20.123456789Z',
    )
    expect(Timestamp.of(0n, 120_000)!.toISOString()).toBe('1970-01-01T00:00:00.000120Z')
    expect(Timestamp.of(2n ** 63n - 1n, 0)!.toISOString()).toBe('+292277026596-12-04T15:30:07Z')
  })

  it('reads back what it writes, over the whole 64-bit range', () => {
    fc.assert(
      fc.property(timestamps, (timestamp) => {
        expect(Timestamp.parseISO(timestamp.toISOString())).toEqual(timestamp)
      }),
    )
    for (const text of ['2023-02-29T00:00:00Z', '2023-11-14T24:00:00Z', '2023-11-14 22:13:20Z']) {
      expect([text, Timestamp.parseISO(text)]).toEqual([text, undefined])
    }
    expect(Timestamp.of(0n, 1_000_000_000)).toBeUndefined()
    expect(Timestamp.of(2n ** 63n, 0)).toBeUndefined()
  })
})

describe('the stored form', () => {
  it('is plain JSON that reads back as the same value', () => {
    fc.assert(
      fc.property(values, (value) => {
        const stored = toStored(value)
        expect(JSON.parse(JSON.stringify(stored))).toEqual(stored)
        expect(fromStored(structuredClone(stored))).toEqual(value)
      }),
    )
    expect(toStored([decimal('0.1e1'), Timestamp.of(1n, 500_000_000)!])).toEqual([
      { $decimal: '0.1e1' },
      { $timestamp: '1970-01-01T00:00:01.500Z' },
    ])
    expect(toStored({ $decimal: '0.1e1' })).toEqual({ $escape: { $decimal: '0.1e1' } })
  })

  it('leaves a value without extensions as it is', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        const lookalike = JSON.stringify(json).match(/"\$(decimal|timestamp|escape)"/)
        fc.pre(!lookalike)
        expect(toStored(json as Value)).toEqual(json)
      }),
    )
  })

  it('reads a malformed tag as the plain object it is', () => {
    expect(fromStored({ $decimal: 'NaN' })).toEqual({ $decimal: 'NaN' })
    expect(fromStored({ $timestamp: 12 })).toEqual({ $timestamp: 12 })
    expect(fromStored({ $escape: 'x' })).toEqual({ $escape: 'x' })
  })
})

describe('JSON text', () => {
  it('writes a decimal as the JSON number it is, every digit kept', () => {
    fc.assert(
      fc.property(values, (value) => {
        const text = jsonText(value)
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(toJson(value))))
      }),
    )
    expect(jsonText({ a: [decimal(RUBY), Timestamp.of(-1n, 1)!] })).toBe(
      `{"a":[${RUBY},"1969-12-31T23:59:59.000000001Z"]}`,
    )
  })
})

describe('measure', () => {
  it('counts a decimal by its digits and a timestamp like its ISO string', () => {
    const memo = new WeakMap()
    expect(measure(decimal('1'.repeat(5000)), Infinity, memo)).toBe(5000)
    expect(measure([decimal('1'.repeat(5000))], 4000, memo)).toBe(Infinity)
    expect(measure(Timestamp.of(0n, 0)!, Infinity, memo)).toBe(32)
  })
})

const RUBY = '0.100000000000043298349238472398e15'

/** What `JSON.parse` reads a value's JSON text as: decimals as doubles, timestamps as text. */
function toJson(value: Value): unknown {
  if (value instanceof Decimal) return value.toNumber()
  if (value instanceof Timestamp) return value.toISOString()
  if (Array.isArray(value)) return value.map(toJson)
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, toJson(child)]))
  }
  return value
}
