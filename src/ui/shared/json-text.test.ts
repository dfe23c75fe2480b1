import { describe, expect, it } from 'vitest'
import { checkJson, placeOf } from './json-text'

const problem = (text: string) => {
  const checked = checkJson(text)
  if (checked.ok) throw new Error(`${JSON.stringify(text)} parsed`)
  return checked.message
}

describe('checkJson', () => {
  it('answers the value of valid JSON', () => {
    expect(checkJson(' {"a": [1, "b", null, true]} ')).toEqual({
      ok: true,
      value: { a: [1, 'b', null, true] },
    })
    expect(checkJson('"\\u00e9\\n"')).toEqual({ ok: true, value: 'é\n' })
  })

  it.each([
    ['{"a": }', 'Line 1, column 7: expected a value'],
    ['{\n  "a": 1,\n  "b": }', 'Line 3, column 8: expected a value'],
    ['[1, 2', 'Line 1, column 6: expected "," or "]", found the end'],
    ['{"a" 1}', 'Line 1, column 6: expected ":", found "1"'],
    ["{'a': 1}", 'Line 1, column 2: expected a key in double quotes, found "\'"'],
    ['[1,]', 'Line 1, column 4: expected a value'],
    ['"abc', 'Line 1, column 5: expected a closing quote, found the end'],
    ['"a\\x"', 'Line 1, column 3: expected an escape'],
    ['"a\nb"', 'Line 1, column 3: expected no line break'],
    ['01', 'Line 1, column 2: expected nothing more after the value, found "1"'],
    ['{} x', 'Line 1, column 4: expected nothing more after the value, found "x"'],
    ['tru', 'Line 1, column 1: expected a value'],
    ['', 'Line 1, column 1: expected a value'],
  ])('says where %j goes wrong', (text, start) => {
    expect(problem(text).startsWith(start)).toBe(true)
  })

  it('counts lines and columns from 1', () => {
    expect(placeOf('ab\ncd', 0)).toEqual({ line: 1, column: 1 })
    expect(placeOf('ab\ncd', 4)).toEqual({ line: 2, column: 2 })
  })
})
