import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Arguments, Block, Expr, Program, Statement } from './ast'
import { compileProgram } from './compile'
import { parse } from './parser'
import { printProgram } from './print'
import { RbSyntaxError } from './syntax-error'

const at = { line: 1, column: 1, offset: 0 }

/** A program without positions: what printing and parsing again must keep. */
const strip = (program: Program): unknown =>
  JSON.parse(JSON.stringify(program, (key, value: unknown) => (key === 'at' ? undefined : value)))

/** Variables are assigned at the top first, so every reading of one is a variable. */
const VARIABLES = ['v', 'bucket', 'v_2']
const NAMES = ['core', 'type', 'echo', 'lib', 'a', 'x_1', 'with', 'compose', 'arg', 'exec', 'proc']
const METHODS = [...NAMES, 'reverse', 'end', 'if', 'nil', 'class', 'do']
const anyText = fc.string({ unit: 'binary', maxLength: 8 })
const key = fc.oneof(fc.constantFrom('a', 'name', '_x', 'if', 'nil', 'Key'), anyText)

const expressions = fc.letrec<{
  expr: Expr
  postfix: Expr
  primary: Expr
  target: Expr
  args: Arguments
  block: Block
  statement: Statement
}>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', maxDepth: 5, withCrossShrink: true },
    tie('postfix'),
    fc.record({
      kind: fc.constant('pipe' as const),
      left: tie('expr'),
      right: tie('postfix'),
      op: fc.constantFrom('>>' as const, '|' as const, '.|' as const, '.>>' as const),
      at: fc.constant(at),
    }),
  ),
  postfix: fc.oneof(
    { depthSize: 'small', maxDepth: 5 },
    tie('primary'),
    fc.record(
      {
        kind: fc.constant('send' as const),
        target: tie('target'),
        name: fc.constantFrom(...METHODS),
        args: tie('args'),
        block: tie('block'),
        at: fc.constant(at),
      },
      { requiredKeys: ['kind', 'target', 'name', 'at'] },
    ),
    fc.record(
      {
        kind: fc.constant('index' as const),
        target: tie('target'),
        key: tie('expr'),
        block: tie('block'),
        at: fc.constant(at),
      },
      { requiredKeys: ['kind', 'target', 'key', 'at'] },
    ),
  ),
  // A pipe never stands before `.name` or `[…]` unless it is in parentheses.
  target: fc.oneof({ depthSize: 'small', maxDepth: 5 }, tie('primary'), tie('postfix')),
  primary: fc.oneof(
    { depthSize: 'small', maxDepth: 5 },
    fc.record({ kind: fc.constant('string' as const), value: anyText, at: fc.constant(at) }),
    fc.record({
      kind: fc.constant('integer' as const),
      value: fc.maxSafeInteger(),
      at: fc.constant(at),
    }),
    fc.record({
      kind: fc.constant('float' as const),
      value: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((v) => !Object.is(v, -0)),
      at: fc.constant(at),
    }),
    fc.record({ kind: fc.constant('boolean' as const), value: fc.boolean(), at: fc.constant(at) }),
    fc.constant({ kind: 'nil' as const, at }),
    fc.record({
      kind: fc.constant('symbol' as const),
      name: fc.oneof(fc.constantFrom('foo', 'Bar_2', '_'), anyText),
      at: fc.constant(at),
    }),
    fc.record({
      kind: fc.constant('variable' as const),
      name: fc.constantFrom(...VARIABLES),
      at: fc.constant(at),
    }),
    fc.record(
      {
        kind: fc.constant('name' as const),
        name: fc.constantFrom(...NAMES),
        args: tie('args'),
        block: tie('block'),
        at: fc.constant(at),
      },
      { requiredKeys: ['kind', 'name', 'at'] },
    ),
    fc.record({
      kind: fc.constant('array' as const),
      items: fc.array(tie('expr'), { maxLength: 2 }),
      at: fc.constant(at),
    }),
    fc.record({
      kind: fc.constant('hash' as const),
      entries: fc.uniqueArray(fc.record({ key, value: tie('expr'), at: fc.constant(at) }), {
        maxLength: 2,
        selector: (entry) => entry.key,
      }),
      at: fc.constant(at),
    }),
    fc.record({ kind: fc.constant('group' as const), expr: tie('expr'), at: fc.constant(at) }),
  ),
  args: fc.record({
    positional: fc.array(tie('expr'), { maxLength: 2 }),
    keywords: fc.uniqueArray(fc.record({ name: key, value: tie('expr'), at: fc.constant(at) }), {
      maxLength: 2,
      selector: (keyword) => keyword.name,
    }),
    at: fc.constant(at),
  }),
  block: fc.record({
    statements: fc.array(tie('statement'), { maxLength: 3 }),
    at: fc.constant(at),
  }),
  statement: fc.oneof(
    fc.record({ kind: fc.constant('expression' as const), expr: tie('expr'), at: fc.constant(at) }),
    fc.record({
      kind: fc.constant('assign' as const),
      name: fc.constantFrom(...VARIABLES),
      value: tie('expr'),
      at: fc.constant(at),
    }),
  ),
}))

const programs = fc.array(expressions.statement, { maxLength: 4 }).map((statements): Program => ({
  statements: [
    ...VARIABLES.map((name): Statement => ({
      kind: 'assign',
      name,
      value: { kind: 'integer', value: 1, at },
      at,
    })),
    ...statements,
  ],
}))

// A fixed amount of work each, but all of it CPU: generous on machines shared with other suites.
describe('printing and parsing again', { timeout: 30_000 }, () => {
  it('gives the same program', () => {
    fc.assert(
      fc.property(programs, (program) => {
        const printed = printProgram(program)
        const [again, expected] = [strip(parse(printed)), strip(program)]
        // Deep equality of large trees is slow: compare their JSON, and show the trees when not equal.
        if (JSON.stringify(again) !== JSON.stringify(expected)) expect(again).toEqual(expected)
      }),
      { numRuns: 250 },
    )
  })

  it('is stable: printing what was parsed from a printed program prints it again', () => {
    fc.assert(
      fc.property(programs, (program) => {
        const printed = printProgram(program)
        expect(printProgram(parse(printed))).toBe(printed)
      }),
      { numRuns: 200 },
    )
  })

  it('compiles, or says where it cannot, and nothing else', () => {
    fc.assert(
      fc.property(programs, (program) => {
        try {
          compileProgram(printProgram(program), 'proc')
        } catch (error) {
          expect(error).toBeInstanceOf(RbSyntaxError)
        }
      }),
      { numRuns: 200 },
    )
  })
})

describe('any text at all', { timeout: 30_000 }, () => {
  const pieces = fc.constantFrom(
    'exec',
    'proc',
    '{',
    '}',
    '(',
    ')',
    '[',
    ']',
    ',',
    '.',
    '.|',
    '>>',
    '|',
    ':',
    '=>',
    '=',
    ';',
    '\n',
    ' ',
    '"',
    "'",
    '#',
    '\\',
    'core',
    'x',
    ':s',
    '1',
    '-',
    '2.5',
    'nil',
    'do',
    'end',
    'arg',
    'a:',
  )
  const sources = fc.oneof(
    anyText,
    fc.array(pieces, { maxLength: 30 }).map((parts) => parts.join('')),
  )

  it('parses, or fails with a line and a column inside the text', () => {
    fc.assert(
      fc.property(sources, (source) => {
        try {
          compileProgram(source, 'proc')
        } catch (error) {
          expect(error).toBeInstanceOf(RbSyntaxError)
          const { line, column, offset } = error as RbSyntaxError
          const lines = source.split('\n')
          expect(line).toBeGreaterThanOrEqual(1)
          expect(line).toBeLessThanOrEqual(lines.length)
          expect(column).toBeGreaterThanOrEqual(1)
          expect(column).toBeLessThanOrEqual([...lines[line - 1]!].length + 1)
          expect(offset).toBeLessThanOrEqual(source.length)
        }
      }),
      { numRuns: 2000 },
    )
  })
})
