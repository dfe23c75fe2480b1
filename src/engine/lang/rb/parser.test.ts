import { describe, expect, it } from 'vitest'
import type { Expr, Program, Statement } from './ast'
import { parse } from './parser'
import { RbSyntaxError } from './syntax-error'

/** A node without its positions, in a form a test can spell out. */
function shape(expr: Expr): unknown {
  switch (expr.kind) {
    case 'string':
    case 'integer':
    case 'float':
    case 'boolean':
      return { [expr.kind]: expr.value }
    case 'nil':
      return 'nil'
    case 'symbol':
      return { symbol: expr.name }
    case 'array':
      return { array: expr.items.map(shape) }
    case 'hash':
      return { hash: expr.entries.map((entry) => [entry.key, shape(entry.value)]) }
    case 'variable':
      return { variable: expr.name }
    case 'group':
      return { group: shape(expr.expr) }
    case 'pipe':
      return { pipe: expr.op, left: shape(expr.left), right: shape(expr.right) }
    case 'name':
    case 'send':
    case 'index': {
      const out: Record<string, unknown> = {}
      if (expr.kind === 'send' || expr.kind === 'index') out.target = shape(expr.target)
      if (expr.kind === 'index') out.index = shape(expr.key)
      else out[expr.kind] = expr.name
      if (expr.kind !== 'index' && expr.args) {
        out.args = [
          ...expr.args.positional.map(shape),
          ...expr.args.keywords.map((k) => ({ [k.name]: shape(k.value) })),
        ]
      }
      if (expr.block) out.block = expr.block.statements.map(statementShape)
      return out
    }
  }
}

const statementShape = (statement: Statement): unknown =>
  statement.kind === 'assign'
    ? { assign: statement.name, value: shape(statement.value) }
    : shape(statement.expr)

const program = (source: string) => parse(source).statements.map(statementShape)
/** The one expression of `exec { … }` around `source`. */
const inside = (source: string) => {
  const [statement] = parse(`exec { ${source} }`).statements as [Statement]
  const expr = (statement as { expr: Extract<Expr, { kind: 'name' }> }).expr
  return expr.block!.statements.map(statementShape)
}
const value = (source: string) => (inside(`core.echo(${source})`)[0] as { args: unknown[] }).args[0]

function failure(source: string): RbSyntaxError {
  try {
    parse(source)
  } catch (error) {
    if (error instanceof RbSyntaxError) return error
    throw error
  }
  throw new Error(`parsed: ${source}`)
}

describe('literals', () => {
  it.each([
    ['"foo"', { string: 'foo' }],
    ["'foo'", { string: 'foo' }],
    ['""', { string: '' }],
    ['"a\\nb\\tc\\r\\s\\e\\a\\b\\f\\v\\0"', { string: 'a\nb\tc\r \u001b\u0007\b\f\v\0' }],
    ['"\\"q\\" \\\\ \\# #no"', { string: '"q" \\ # #no' }],
    ['"\\u00e9\\u{1F600}\\u{41 42}"', { string: 'é😀AB' }],
    ['"\\101\\x41\\7"', { string: 'AA\u0007' }],
    ['"\\q"', { string: 'q' }],
    ['"two\nlines"', { string: 'two\nlines' }],
    ["'it\\'s \\\\ \\n'", { string: "it's \\ \\n" }],
    ['"😀 é"', { string: '😀 é' }],
    ['42', { integer: 42 }],
    ['1_000_000', { integer: 1000000 }],
    ['-7', { integer: -7 }],
    ['- 7', { integer: -7 }],
    ['9007199254740991', { integer: 9007199254740991 }],
    ['42.42', { float: 42.42 }],
    ['-0.5', { float: -0.5 }],
    ['1e3', { float: 1000 }],
    ['1.5E-3', { float: 0.0015 }],
    ['2e+2', { float: 200 }],
    ['true', { boolean: true }],
    ['false', { boolean: false }],
    ['nil', 'nil'],
    [':foo', { symbol: 'foo' }],
    [':Foo_1', { symbol: 'Foo_1' }],
    [':"with space"', { symbol: 'with space' }],
    ['[]', { array: [] }],
    ['[1, "a", [nil]]', { array: [{ integer: 1 }, { string: 'a' }, { array: ['nil'] }] }],
    ['[\n  1,\n  2,\n]', { array: [{ integer: 1 }, { integer: 2 }] }],
    ['{}', { hash: [] }],
    [
      '{foo: "bar", "b c": 1, :d => 2, "e" => 3}',
      {
        hash: [
          ['foo', { string: 'bar' }],
          ['b c', { integer: 1 }],
          ['d', { integer: 2 }],
          ['e', { integer: 3 }],
        ],
      },
    ],
    ['{\n  a: {b: [:c]},\n}', { hash: [['a', { hash: [['b', { array: [{ symbol: 'c' }] }]] }]] }],
  ])('%s', (source, expected) => {
    expect(value(source)).toEqual(expected)
  })
})

describe('calls', () => {
  it('a bare name, a dotted chain, parentheses and keywords', () => {
    expect(inside('core.ping')).toEqual([{ target: { name: 'core' }, send: 'ping' }])
    expect(inside('type.string.truncate("foo", length: 2)')).toEqual([
      {
        target: { target: { name: 'type' }, send: 'string' },
        send: 'truncate',
        args: [{ string: 'foo' }, { length: { integer: 2 } }],
      },
    ])
    expect(inside('core.echo()')).toEqual([{ target: { name: 'core' }, send: 'echo', args: [] }])
    expect(inside('core.echo (1)')).toEqual([
      { target: { name: 'core' }, send: 'echo', args: [{ integer: 1 }] },
    ])
  })

  it('keywords in every form, over several lines, with a trailing comma', () => {
    expect(inside('x.y(\n  "in",\n  a: 1,\n  "b": 2,\n  :c => 3,\n  "d" => 4,\n)')).toEqual([
      {
        target: { name: 'x' },
        send: 'y',
        args: [
          { string: 'in' },
          { a: { integer: 1 } },
          { b: { integer: 2 } },
          { c: { integer: 3 } },
          { d: { integer: 4 } },
        ],
      },
    ])
  })

  it('a keyword may name a reserved word, and a method after a dot may be one', () => {
    expect(inside('x.if(if: 1).end')).toEqual([
      {
        target: { target: { name: 'x' }, send: 'if', args: [{ if: { integer: 1 } }] },
        send: 'end',
      },
    ])
  })

  it('blocks in braces, after a name, a call or a lookup', () => {
    expect(inside('enum.map { type.string.reverse }')).toEqual([
      {
        target: { name: 'enum' },
        send: 'map',
        block: [{ target: { target: { name: 'type' }, send: 'string' }, send: 'reverse' }],
      },
    ])
    expect(inside('x["a b"] { y }')).toEqual([
      { target: { name: 'x' }, index: { string: 'a b' }, block: [{ name: 'y' }] },
    ])
    expect(inside('x.with(1) {\n  y\n  z\n}')).toEqual([
      {
        target: { name: 'x' },
        send: 'with',
        args: [{ integer: 1 }],
        block: [{ name: 'y' }, { name: 'z' }],
      },
    ])
    expect(inside('x {}')).toEqual([{ name: 'x', block: [] }])
  })

  it('lookups with brackets', () => {
    expect(inside('lib["greet:dev"].with("hi")')).toEqual([
      {
        target: { target: { name: 'lib' }, index: { string: 'greet:dev' } },
        send: 'with',
        args: [{ string: 'hi' }],
      },
    ])
    expect(inside('type.string[:reverse]')).toEqual([
      { target: { target: { name: 'type' }, send: 'string' }, index: { symbol: 'reverse' } },
    ])
  })
})

describe('composition', () => {
  it.each(['>>', '|', '.|', '.>>'])('%s composes, left to right', (op) => {
    expect(inside(`a ${op} b ${op} c`)).toEqual([
      {
        pipe: op,
        left: { pipe: op, left: { name: 'a' }, right: { name: 'b' } },
        right: { name: 'c' },
      },
    ])
  })

  it('goes on across lines after an operator, and on a line that starts with a dot', () => {
    const split = inside(
      'core.echo("foo")\n  .| type.string.reverse\n\n  # a comment\n  .| type.string.upcase',
    )
    const after = inside('core.echo("foo") .|\n  type.string.reverse >>\n  type.string.upcase')
    expect(split).toHaveLength(1)
    expect(after).toHaveLength(1)
    expect(inside('core\n  .echo\n  .with(1)')).toEqual([
      { target: { target: { name: 'core' }, send: 'echo' }, send: 'with', args: [{ integer: 1 }] },
    ])
  })

  it('parentheses group', () => {
    expect(inside('(a .| b).with(x: 1)')).toEqual([
      {
        target: { group: { pipe: '.|', left: { name: 'a' }, right: { name: 'b' } } },
        send: 'with',
        args: [{ x: { integer: 1 } }],
      },
    ])
  })
})

describe('statements', () => {
  it('are separated by new lines and semicolons; a backslash joins lines', () => {
    expect(inside('a; b\n\nc')).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'c' }])
    expect(inside('core \\\n  .ping')).toEqual([{ target: { name: 'core' }, send: 'ping' }])
  })

  it('an assigned name is a variable from then on, in the block and the blocks inside it', () => {
    expect(inside('x = core.ping\nx.with(1)\nenum.map { x }\ny')).toEqual([
      { assign: 'x', value: { target: { name: 'core' }, send: 'ping' } },
      { target: { variable: 'x' }, send: 'with', args: [{ integer: 1 }] },
      { target: { name: 'enum' }, send: 'map', block: [{ variable: 'x' }] },
      { name: 'y' },
    ])
    // Not before its assignment, and not outside the block that assigned it.
    expect(program('exec { y }\nexec { y = 1 }\nexec { y }')).toEqual([
      { name: 'exec', block: [{ name: 'y' }] },
      { name: 'exec', block: [{ assign: 'y', value: { integer: 1 } }] },
      { name: 'exec', block: [{ name: 'y' }] },
    ])
    // With parentheses, a variable's name is a call again.
    expect(inside('x = 1\nx(2)')[1]).toEqual({ name: 'x', args: [{ integer: 2 }] })
  })

  it('top-level blocks, comments and blank lines', () => {
    const source = `# deploys two\n\nexec {\n  core.echo("a") # said\n}\n\nproc(name: "b", release: arg(:go)) {\n  core.echo\n}\n`
    expect(program(source)).toEqual([
      {
        name: 'exec',
        block: [{ target: { name: 'core' }, send: 'echo', args: [{ string: 'a' }] }],
      },
      {
        name: 'proc',
        args: [{ name: { string: 'b' } }, { release: { name: 'arg', args: [{ symbol: 'go' }] } }],
        block: [{ target: { name: 'core' }, send: 'echo' }],
      },
    ])
    expect(parse('').statements).toEqual([])
    expect(parse('\n# only a comment\n').statements).toEqual([])
  })

  it('knows where each node starts', () => {
    const parsed: Program = parse('exec {\n  x = core.echo(:a)\n}')
    const exec = parsed.statements[0] as Extract<Statement, { kind: 'expression' }>
    expect(exec.at).toEqual({ line: 1, column: 1, offset: 0 })
    const assign = (exec.expr as Extract<Expr, { kind: 'name' }>).block!.statements[0]!
    expect(assign.at).toEqual({ line: 2, column: 3, offset: 9 })
    const call = (assign as Extract<Statement, { kind: 'assign' }>).value as Extract<
      Expr,
      { kind: 'send' }
    >
    expect(call.at).toEqual({ line: 2, column: 12, offset: 18 })
    expect(call.args!.positional[0]!.at).toEqual({ line: 2, column: 17, offset: 23 })
  })

  it('counts columns in characters, offsets in UTF-16 units', () => {
    const error = failure('exec { core.echo("😀😀") ) }')
    expect([error.line, error.column, error.offset]).toEqual([1, 24, 25])
  })
})

describe('errors name the line, the column and what was expected', () => {
  it.each([
    // lexer
    [
      'exec { core.echo("foo) }',
      1,
      18,
      'expected a closing `"\': the text that starts here never ends',
    ],
    ["exec { core.echo('foo) }", 1, 18, "expected a closing `''"],
    ['exec { core.echo("#{x}") }', 1, 19, 'interpolation runs code'],
    ['exec { core.echo("#@x") }', 1, 19, 'interpolation runs code'],
    ['exec { core.echo("\\u12") }', 1, 19, 'expected a unicode escape'],
    ['exec { core.echo("\\u{d800}") }', 1, 19, 'expected a unicode escape'],
    ['exec { core.echo("\\x") }', 1, 19, 'expected a hex escape'],
    ['exec { core.echo("\\xff") }', 1, 19, 'expected a byte escape up to \\x7F'],
    [
      'exec { core.echo(0x1F) }',
      1,
      18,
      'hexadecimal, octal and binary numbers are outside the language',
    ],
    ['exec { core.echo(12abc) }', 1, 20, "expected a number to end here, found `a'"],
    [
      'exec { core.echo(99999999999999999) }',
      1,
      18,
      'expected an integer from -9007199254740991 to 9007199254740991',
    ],
    ['exec { core.echo(1e999) }', 1, 18, 'expected a number a double can hold'],
    ['exec { valid?.x }', 1, 13, "names end without `?' or `!'"],
    ['exec { @x }', 1, 8, 'instance variables are outside the language'],
    ['exec { $x }', 1, 8, 'global variables are outside the language'],
    ['exec { Foo::Bar }', 1, 8, 'constants are outside the language'],
    ['exec { x = <<~EOS\nhi\nEOS\n}', 1, 12, 'heredocs'],
    ['exec { core.echo(%w[a b]) }', 1, 18, '%-literals are outside the language'],
    ['exec { core.echo(*x) }', 1, 18, "expected an expression, found `*'"],
    ['exec { core.echo(\u0007) }', 1, 18, 'found U+0007'],
    // parser
    ['exec {\n  core.echo("foo"\n}', 3, 1, "expected `,' or `)' after an argument, found `}'"],
    [
      'exec {\n  core.echo(\n',
      3,
      1,
      "expected `)' to close the `(' opened at line 2, column 12, found the end of the program",
    ],
    ['exec { core.echo([1, 2 }', 1, 24, "expected `,' or `]' after an array element, found `}'"],
    ['exec { core.echo([1', 1, 20, "expected `]' to close the `[' opened at line 1, column 18"],
    ['exec {\n  core.ping\n', 3, 1, "expected `}' to close the block opened at line 1, column 6"],
    ['exec { core.echo "x" }', 1, 18, "a call's input and arguments go in parentheses"],
    ['exec { core.ping core.ping }', 1, 18, "expected a new line or `;' after the statement"],
    ['core.ping core.ping', 1, 11, "expected a new line or `;' after the statement, found `core'"],
    ['exec do\n  core.ping\nend', 1, 6, "`do … end' blocks are outside the language"],
    ['exec { Time.now }', 1, 8, 'constants are outside the language'],
    [
      'exec { x.Foo }',
      1,
      10,
      "expected a name after `.', found `Foo'; the language's names start with a lowercase letter",
    ],
    ['exec { x.(1) }', 1, 10, "expected a name after `.', found `('"],
    ['exec { if x }', 1, 8, "`if' is outside the language"],
    ['exec { self }', 1, 8, "`self' is outside the language"],
    ['exec { end }', 1, 8, "`end' is outside the language"],
    ['exec { foo: 1 }', 1, 8, "`name: value' goes inside a call's parentheses"],
    ['exec { x = }', 1, 12, "expected an expression, found `}'"],
    ['exec { core.echo(-x) }', 1, 19, "expected a number after `-', found `x'"],
    ['exec { core.echo(()) }', 1, 19, "expected an expression inside `( )', found `)'"],
    ['exec { (core.ping }', 1, 19, "expected `)' to close the parenthesis, found `}'"],
    ['exec { x[1 }', 1, 12, "expected `]' to close the lookup, found `}'"],
    [
      'exec { core.echo({1 => 2}) }',
      1,
      19,
      "expected a hash key: `name:', `\"name\":' or `:name =>', found `1'",
    ],
    ['exec { core.echo({a: 1, a: 2}) }', 1, 25, "expected each hash key once, found `a' again"],
    ['exec { x.y(a: 1, a: 2) }', 1, 18, "expected each keyword once, found `a' again"],
    [
      'exec { x.y(a: 1, 2) }',
      1,
      18,
      "expected a keyword argument (`name: value'); positional values come first",
    ],
    ['exec { enum.map { |x| x } }', 1, 19, "block parameters (`|x|') are outside the language"],
    ['exec { a |\n}', 2, 1, "expected an expression, found `}'"],
    ['exec { a\n| b }', 2, 1, "expected an expression, found `|'"],
    ['exec { core.ping\n  >> core.echo }', 2, 3, "expected an expression, found `>>'"],
    [
      'exec { lib["a"]("b") }',
      1,
      16,
      "expected a new line or `;' after the statement, or `}' to close the block, found `('",
    ],
    ['exec { core.echo("a" "b") }', 1, 22, "expected `,' or `)' after an argument, found `\"b\"'"],
    ['exec { core.echo(x: ) }', 1, 21, "expected an expression, found `)'"],
    [
      `exec { core.echo(${'['.repeat(40)}${']'.repeat(40)}) }`,
      1,
      48,
      'expected at most 32 levels of brackets, blocks and parentheses',
    ],
  ])('%j', (source, line, column, message) => {
    const error = failure(source)
    expect(error.message).toContain(message)
    expect([error.line, error.column]).toEqual([line, column])
    expect(error.located).toBe(`line ${line}, column ${column}: ${error.message}`)
  })
})
