import { describe, expect, it } from 'vitest'
import { formatTuples } from './format-tuples'

describe('formatTuples', () => {
  it('keeps a short procedure on one line', () => {
    const proc = ['{}', ['()', 'type.string.reverse'], ['()', 'type.string.capitalize']]
    expect(formatTuples(proc)).toBe(
      '["{}", ["()", "type.string.reverse"], ["()", "type.string.capitalize"]]',
    )
  })

  it('breaks a long one tuple by tuple, and stays JSON', () => {
    const proc = [
      '{}',
      ['()', 'type.string.upcase'],
      ['()', 'type.string.append', ['$$', 'value', ['@@', 'mark', { default: ['%%', '!'] }]]],
      ['()', 'type.string.truncate', ['$$', 'length', ['%%', 40]], ['>>', ['%%', 'a long text']]],
    ]
    const text = formatTuples(proc)
    expect(text).toBe(
      [
        '["{}",',
        '  ["()", "type.string.upcase"],',
        '  ["()", "type.string.append",',
        '    ["$$", "value", ["@@", "mark", {"default": ["%%", "!"]}]]',
        '  ],',
        '  ["()", "type.string.truncate",',
        '    ["$$", "length", ["%%", 40]],',
        '    [">>", ["%%", "a long text"]]',
        '  ]',
        ']',
      ].join('\n'),
    )
    expect(JSON.parse(text)).toEqual(proc)
  })

  it('breaks long objects member by member', () => {
    const value = { description: 'x'.repeat(50), steps: ['a'.repeat(30), 'b'.repeat(30)] }
    expect(JSON.parse(formatTuples(value))).toEqual(value)
    expect(formatTuples(value).split('\n')[0]).toBe('{')
  })
})
