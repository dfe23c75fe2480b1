import { describe, expect, it } from 'vitest'
import { nameProblem, shapeProblem } from './rules'

describe('nameProblem', () => {
  it.each(['a', 'text.flip', 'A_1.b2.c_', 'x'.repeat(64)])('accepts %j', (name) => {
    expect(nameProblem(name)).toBeUndefined()
  })

  it.each([
    ['', 'Give the procedure a name, such as text.shout.'],
    ['x'.repeat(65), 'A name is at most 64 characters; this one has 65.'],
    ['1a', 'A name starts with a letter.'],
    ['_a', 'A name starts with a letter.'],
    ['a-b', 'A name holds letters, digits, _ and dots only, not “-”.'],
    ['a b', 'A name holds letters, digits, _ and dots only, not “ ”.'],
    ['a.', 'Dots go between segments: none at the end, never two in a row.'],
    ['a..b', 'Dots go between segments: none at the end, never two in a row.'],
  ])('refuses %j', (name, problem) => {
    expect(nameProblem(name)).toBe(problem)
  })
})

describe('shapeProblem', () => {
  it.each([
    [['{}']],
    [['{}', ['>>', 'x'], ['$$', 'a', 1], ['()', 'type.string.reverse']]],
    [['()', 'core.ping']],
    [['()', 'type.string.truncate', ['$$', 'length', 2]]],
  ])('accepts %j', (proc) => {
    expect(shapeProblem(proc)).toBeUndefined()
  })

  it.each([
    [{ steps: [] }, /^A procedure is a \["{}", …\] composition/],
    ['["{}"]', /^A procedure is/],
    [['%%', 1], /^A procedure is/],
    [['()'], /^A "\(\)" call names its endpoint second/],
    [['()', 'core.ping', ['()', 'x']], /^Member 3 of the call/],
    [['{}', ['()', 'a'], 'b'], /^Step 2 of the composition/],
    [['{}', ['%%', 1]], /^Step 1 of the composition/],
  ])('refuses %j', (proc, problem) => {
    expect(shapeProblem(proc)).toMatch(problem)
  })
})
