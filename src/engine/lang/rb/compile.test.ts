import { describe, expect, it } from 'vitest'
import { compileProgram } from './compile'
import { MAX_COMPILED_DEPTH, MAX_COMPILED_VALUES } from './composer'
import { MAX_CHAIN } from './parser'
import { RbSyntaxError } from './syntax-error'

const compile = (source: string, service = 'proc') => compileProgram(source, service)
/** The one composition `exec { source }` compiles to. */
const exec = (source: string) => compile(`exec {\n${source}\n}`)[0]

function failure(source: string): RbSyntaxError {
  try {
    compile(source)
  } catch (error) {
    if (error instanceof RbSyntaxError) return error
    throw error
  }
  throw new Error(`compiled: ${source}`)
}

describe('what the composer gem serializes', () => {
  it('a composition takes the input of its first call, which keeps its own', () => {
    const source = `exec {\n  core.echo("hello")\n    .| type.string.reverse\n    .| type.string.capitalize\n}\n`
    expect(compile(source)).toEqual([
      [
        '{}',
        ['>>', ['%%', 'hello']],
        ['()', 'core.echo', ['>>', ['%%', 'hello']]],
        ['()', 'type.string.reverse'],
        ['()', 'type.string.capitalize'],
      ],
    ])
  })

  it('a single call is wrapped in a composition', () => {
    expect(exec('core.ping')).toEqual(['{}', ['()', 'core.ping']])
  })

  it('>>, |, .| and .>> compose alike, and grouping does not change the result', () => {
    const outputs = [
      'a >> b >> c',
      'a | b | c',
      'a .| b .| c',
      'a .>> b .>> c',
      'a .| (b .| c)',
      '(a .| b) .| c',
    ].map((source) => exec(source))
    for (const output of outputs) {
      expect(output).toEqual(['{}', ['()', 'a'], ['()', 'b'], ['()', 'c']])
    }
  })

  it('a composition on the right gives its calls and arguments, not its input', () => {
    expect(exec('a(1) .| (b(2) .| c).with(x: 3)')).toEqual([
      '{}',
      ['>>', ['%%', 1]],
      ['$$', 'x', ['%%', 3]],
      ['()', 'a', ['>>', ['%%', 1]]],
      ['()', 'b', ['>>', ['%%', 2]]],
      ['()', 'c'],
    ])
  })

  it('a longer name keeps the input and arguments given along the way', () => {
    expect(exec('type.string("foo", length: 1).truncate')).toEqual([
      '{}',
      ['()', 'type.string.truncate', ['>>', ['%%', 'foo']], ['$$', 'length', ['%%', 1]]],
    ])
    expect(exec('type.string("foo", length: 1).truncate("bar", length: 2, x: 3)')).toEqual([
      '{}',
      [
        '()',
        'type.string.truncate',
        ['>>', ['%%', 'bar']],
        ['$$', 'length', ['%%', 2]],
        ['$$', 'x', ['%%', 3]],
      ],
    ])
  })

  it('.with replaces the input and merges arguments, on a call and on a composition', () => {
    expect(exec('type.string.truncate.with("foo", length: 1).with(length: 2)')).toEqual([
      '{}',
      ['()', 'type.string.truncate', ['>>', ['%%', 'foo']], ['$$', 'length', ['%%', 2]]],
    ])
    expect(exec('(a("x") .| b).with(y: :z).with("w")')).toEqual([
      '{}',
      ['>>', ['%%', 'w']],
      ['$$', 'y', ['@@', 'z', {}]],
      ['()', 'a', ['>>', ['%%', 'x']]],
      ['()', 'b'],
    ])
  })

  it('.compose composes', () => {
    expect(exec('a("x").compose(b, c .| d)')).toEqual([
      '{}',
      ['>>', ['%%', 'x']],
      ['()', 'a', ['>>', ['%%', 'x']]],
      ['()', 'b'],
      ['()', 'c'],
      ['()', 'd'],
    ])
    expect(exec('a.compose')).toEqual(['{}', ['()', 'a']])
  })

  it('symbols and arg() are references; arg options are data', () => {
    expect(exec('core.echo(:foo)')).toEqual(['{}', ['()', 'core.echo', ['>>', ['@@', 'foo', {}]]]])
    expect(exec('type.string.truncate(length: arg(:n, default: 2, type: :integer))')).toEqual([
      '{}',
      [
        '()',
        'type.string.truncate',
        ['$$', 'length', ['@@', 'n', { default: ['%%', 2], type: ['%%', 'integer'] }]],
      ],
    ])
    expect(exec('core.echo(argument("n", default: core.echo(2)))')).toEqual([
      '{}',
      [
        '()',
        'core.echo',
        ['>>', ['@@', 'n', { default: ['{}', ['()', 'core.echo', ['>>', ['%%', 2]]]] }]],
      ],
    ])
  })

  it('literals are data: symbols inside them are text, hashes keep their order', () => {
    expect(exec('core.echo({b: [:x, 1.5, nil, true], "a" => {}})')).toEqual([
      '{}',
      ['()', 'core.echo', ['>>', ['%%', { b: ['x', 1.5, null, true], a: {} }]]],
    ])
    const [, [, , [, [, hash]]]] = exec('core.echo({__proto__: 1})') as [
      string,
      [string, string, [string, [string, object]]],
    ]
    expect(Object.keys(hash)).toEqual(['__proto__'])
  })

  it('a block is the proc argument; a lookup takes any name', () => {
    expect(exec('enum.map(x: 1) { type.string.reverse }')).toEqual([
      '{}',
      [
        '()',
        'enum.map',
        ['$$', 'x', ['%%', 1]],
        ['$$', 'proc', ['{}', ['()', 'type.string.reverse']]],
      ],
    ])
    expect(exec('lib["greet:dev"].with("hi")')).toEqual([
      '{}',
      ['()', 'lib.greet:dev', ['>>', ['%%', 'hi']]],
    ])
    expect(exec('x[:proc] { y }')).toEqual([
      '{}',
      ['()', 'x.proc', ['$$', 'proc', ['{}', ['()', 'y']]]],
    ])
  })

  it('local variables hold what they were given, across blocks from the top level', () => {
    const source = `greeting = core.echo("hi")\nexec { greeting .| type.string.upcase }\nexec {\n  x = greeting.with("yo")\n  x = x.with(n: 1)\n  x\n}`
    expect(compile(source)).toEqual([
      [
        '{}',
        ['>>', ['%%', 'hi']],
        ['()', 'core.echo', ['>>', ['%%', 'hi']]],
        ['()', 'type.string.upcase'],
      ],
      ['{}', ['()', 'core.echo', ['>>', ['%%', 'yo']], ['$$', 'n', ['%%', 1]]]],
    ])
  })

  it('the report of the command-line tool, without its Ruby time', () => {
    const source = `exec {
  bucket = type.array.append(["analytics"], value: :environment)
    .| type.array.join(separator: ":")
  bucket = bucket.with(environment: "production")
  keyv.scan(prefix: "2024-01-01", bucket: bucket)
    .| enum.map {
         keyv.get(bucket: bucket)
       }
}`
    const bucket = [
      '{}',
      ['>>', ['%%', ['analytics']]],
      ['$$', 'environment', ['%%', 'production']],
      [
        '()',
        'type.array.append',
        ['>>', ['%%', ['analytics']]],
        ['$$', 'value', ['@@', 'environment', {}]],
      ],
      ['()', 'type.array.join', ['$$', 'separator', ['%%', ':']]],
    ]
    expect(compile(source)).toEqual([
      [
        '{}',
        ['()', 'keyv.scan', ['$$', 'prefix', ['%%', '2024-01-01']], ['$$', 'bucket', bucket]],
        ['()', 'enum.map', ['$$', 'proc', ['{}', ['()', 'keyv.get', ['$$', 'bucket', bucket]]]]],
      ],
    ])
  })
})

describe('top-level blocks', () => {
  it('proc blocks call <service>.deploy with the name, the release flag when given, and the block', () => {
    const source = `exec { core.echo("go") }\nproc(name: "shout") { type.string.upcase }\nproc(name: :name, release: arg(:live)) { core.echo }\nproc { core.echo }`
    expect(compile(source, 'svc')).toEqual([
      ['{}', ['()', 'core.echo', ['>>', ['%%', 'go']]]],
      [
        '{}',
        [
          '()',
          'svc.deploy',
          ['$$', 'name', ['%%', 'shout']],
          ['$$', 'proc', ['{}', ['()', 'type.string.upcase']]],
        ],
      ],
      [
        '{}',
        [
          '()',
          'svc.deploy',
          ['$$', 'name', ['@@', 'name', {}]],
          ['$$', 'release', ['@@', 'live', {}]],
          ['$$', 'proc', ['{}', ['()', 'core.echo']]],
        ],
      ],
      [
        '{}',
        [
          '()',
          'svc.deploy',
          ['$$', 'name', ['%%', null]],
          ['$$', 'proc', ['{}', ['()', 'core.echo']]],
        ],
      ],
    ])
  })

  it('an empty program compiles to no objects; proc inside a block is a call', () => {
    expect(compile('')).toEqual([])
    expect(exec('proc.delete(name: "x")')).toEqual([
      '{}',
      ['()', 'proc.delete', ['$$', 'name', ['%%', 'x']]],
    ])
  })
})

describe('what cannot be compiled names its line and column', () => {
  it.each([
    ['core.ping', 1, 1, "expected `exec { … }' or `proc(name: …) { … }' at the top level"],
    ['x = 1\n  "loose"', 2, 3, 'at the top level of the program, found an expression'],
    ['exec', 1, 1, 'expected a block after `exec\', as in `exec { core.echo("hi") }\''],
    ['proc(name: "x")', 1, 1, "expected a block after `proc'"],
    ['exec(1) { a }', 1, 5, "expected `exec { … }' with no arguments"],
    ['proc("x") { a }', 1, 6, "expected `name:' or `release:', found a positional value"],
    ['proc(nam: "x") { a }', 1, 6, "expected `name:' or `release:', found `nam:'"],
    [
      'exec {\n  core.ping\n  "done"\n}',
      3,
      3,
      "expected the `exec' block to end with a call or a composition, found a string",
    ],
    [
      'proc(name: "x") { 42 }',
      1,
      19,
      "expected the `proc' block to end with a call or a composition, found a number",
    ],
    ['exec { :x }', 1, 8, "found the symbol `:x'"],
    ['exec { arg(:x) }', 1, 8, "found the argument reference `x'"],
    ['exec {}', 1, 6, 'expected a call inside the block, found an empty block'],
    ['exec { enum.map {} }', 1, 17, 'found an empty block'],
    [
      'exec { core.echo([1, core.ping]) }',
      1,
      22,
      "expected data inside an array or a hash, found the call `core.ping'",
    ],
    ['exec { core.echo({a: core.ping .| b}) }', 1, 22, 'found a composition'],
    ['exec { core.echo([arg(:x)]) }', 1, 19, "found the argument reference `x'"],
    [
      'exec { [1] .| core.echo }',
      1,
      8,
      "expected a call or a composition before `.|', found an array",
    ],
    [
      'exec { core.echo >> "x" }',
      1,
      21,
      "expected a call or a composition after `>>', found a string",
    ],
    ['exec { nil | core.echo }', 1, 8, "found `nil'"],
    [
      'exec { "x".upcase }',
      1,
      12,
      "expected a call before `.upcase', found a string: only calls have methods in the language",
    ],
    ['exec { (a .| b).c }', 1, 17, "only `.with', `.compose', `.|' and `>>' follow a composition"],
    ['exec { (a .| b)["c"] }', 1, 16, "expected a call before `[…]', found a composition"],
    [
      'exec { core.input }',
      1,
      13,
      'found `input\', which a callable answers itself in Ruby: write `core["input"]\'',
    ],
    ['exec { lib.proc }', 1, 12, 'write `lib["proc"]\''],
    ['exec { x[1] }', 1, 10, "expected a name in `[…]', found a number"],
    ['exec { core.echo(1, 2) }', 1, 21, 'expected one input'],
    ['exec { a.with(1, 2) }', 1, 18, 'expected one input'],
    ['exec { a.compose(b, x: 1) }', 1, 10, "expected `.compose(other, …)' with calls only"],
    [
      'exec { a.compose(b, "c") }',
      1,
      21,
      'expected a call or a composition to compose, found a string',
    ],
    ['exec { arg }', 1, 8, "expected `arg(:name, default: …, type: …)'"],
    ['exec { arg(:a, :b) }', 1, 16, "expected `arg(:name, default: …, type: …)'"],
    ['exec { arg(1) }', 1, 12, "expected the argument's name as a symbol"],
    ['exec { arg(:a, kind: 1) }', 1, 16, "expected `default:' or `type:', found `kind:'"],
    ['exec { exec { a } }', 1, 8, 'blocks stand at the top level of the program'],
    ['exec { proc(name: "x") { a } }', 1, 8, 'blocks stand at the top level of the program'],
    [
      'exec { x = x.y }',
      1,
      12,
      "expected `x' to hold a value, found it used in its own assignment",
    ],
  ])('%j', (source, line, column, message) => {
    const error = failure(source)
    expect(error.message).toContain(message)
    expect([error.line, error.column]).toEqual([line, column])
  })

  it('a program whose tuples would grow without bound', () => {
    const doubling = [
      'x = core.echo(1)',
      ...Array.from({ length: 30 }, () => 'x = x.with(a: x, b: x)'),
      'exec { x }',
    ]
    const error = failure(doubling.join('\n'))
    expect(error.message).toContain(`more than ${MAX_COMPILED_VALUES} values`)
    const nesting = [
      'x = core.echo(1)',
      ...Array.from({ length: 100 }, () => 'x = core.echo(x)'),
      'exec { x }',
    ]
    expect(failure(nesting.join('\n')).message).toContain(
      `deeper than ${MAX_COMPILED_DEPTH} levels`,
    )
  })
})

describe('every depth is bounded: no program overflows the stack', () => {
  const links = (n: number, link: string) => Array.from({ length: n }, () => link).join('')

  it('a chain as long as the bound compiles, walked in a loop; one link more is a 400 naming the bound and the line', () => {
    // Evaluated recursively, 3,000 links overflowed Node's stack.
    const name = exec(`core${links(MAX_CHAIN, '.x')}`) as unknown[]
    expect((name[1] as unknown[])[1]).toBe(`core${links(MAX_CHAIN, '.x')}`)
    const [piped] = compile(`a = core.ping\nexec { a${links(MAX_CHAIN, ' >> a')} }`) as [unknown[]]
    expect(piped).toHaveLength(MAX_CHAIN + 2)
    for (const [source, line] of [
      [`a = core.ping\nexec { a${links(MAX_CHAIN + 1, ' >> a')} }`, 2],
      [`a = core.ping\nexec { a${links(MAX_CHAIN + 1, ' .| a')} }`, 2],
      [`exec { core.echo${links(MAX_CHAIN, '.with(1)')} }`, 1],
      // A chain spread over lines: the one that passes the bound is named.
      [`exec {\n  core.ping\n${links(MAX_CHAIN + 1, '  .x\n')}}`, MAX_CHAIN + 2],
    ] as const) {
      const error = failure(source)
      expect(error.message).toContain(`expected at most ${MAX_CHAIN} links in one chain`)
      expect(error.line).toBe(line)
    }
  })

  it('compositions doubled through variables are refused at the line that passes the bound', () => {
    const doubling = [
      'a = core.ping >> core.ping',
      ...Array.from({ length: 30 }, () => 'a = a >> a'),
      'exec { a }',
    ]
    const error = failure(doubling.join('\n'))
    expect(error.message).toContain(
      `a composition would hold more than ${MAX_COMPILED_VALUES} calls`,
    )
    // 2^17 calls, on the 17th doubling.
    expect(error.line).toBe(17)
  })

  it('composing is linear: .compose of 20,000 calls shares them instead of copying the list each time', () => {
    // Copying the list on every compose took 21 s for this program.
    const program = `a = core.ping\nexec { a.compose(${Array.from({ length: 20_000 }, () => 'a').join(', ')}) }`
    const [composition] = compile(program) as [unknown[]]
    expect(composition).toHaveLength(20_002)
    expect(
      composition.slice(1).every((call) => JSON.stringify(call) === '["()","core.ping"]'),
    ).toBe(true)
  })
})
