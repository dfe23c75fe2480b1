import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { locateJsonError } from './json-error'

describe('locateJsonError', () => {
  it.each([
    ['{"a": }', 1, 7, '"}"'],
    ['[1, 2,]', 1, 7, '"]"'],
    ['[[">>", "a"', 1, 12, 'the end of the body'],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, '"\\"b\\": 2\\n}"'],
    ['tru', 1, 1, '"tru"'],
    ['[01]', 1, 3, '"1]"'],
    ['"a\\x"', 1, 1, '"\\"a\\\\x\\""'],
    ['{"a" 1}', 1, 6, '"1}"'],
    ['1 2', 1, 3, '"2"'],
    ['', 1, 1, 'the end of the body'],
  ])('places the mistake in %j', (text, line, column, found) => {
    expect(() => JSON.parse(text)).toThrow()
    expect(locateJsonError(text)).toEqual({ line, column, found })
  })

  it('finds no mistake in any valid JSON', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(locateJsonError(text)).toBeUndefined()
      }),
      { numRuns: 300 },
    )
  })

  it('finds a mistake in every text JSON.parse refuses', () => {
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.string({ maxLength: 2 }), (text, at, junk) => {
        const broken = text.slice(0, at % (text.length + 1)) + junk
        let valid = true
        try {
          JSON.parse(broken)
        } catch {
          valid = false
        }
        expect(locateJsonError(broken) === undefined).toBe(valid)
      }),
      { numRuns: 300 },
    )
  })

  it('walks nesting far deeper than the stack', () => {
    expect(locateJsonError('['.repeat(200_000))).toEqual({
      line: 1,
      column: 200_001,
      found: 'the end of the body',
    })
  })
})
