import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'

let h: Harness
beforeEach(async () => {
  h = await createHarness({ serviceName: 'proc' })
})

const compile = (code: string, lang?: string) =>
  h.tuples(
    'core.compile',
    [['$$', 'code', ['%%', code]], ...(lang === undefined ? [] : [['$$', 'lang', ['%%', lang]]])],
    { accept: 'application/json' },
  )

describe('core.compile', () => {
  it('answers one composition per top-level block, nothing run', async () => {
    const response = await compile(
      'exec {\n  keyv.set(bucket: "b", key: "k", value: 1)\n}\nproc(name: "p") { core.echo }',
      'rb',
    )
    expect(response.status).toBe(200)
    expect(response.json()).toEqual([
      [
        '{}',
        [
          '()',
          'keyv.set',
          ['$$', 'bucket', ['%%', 'b']],
          ['$$', 'key', ['%%', 'k']],
          ['$$', 'value', ['%%', 1]],
        ],
      ],
      [
        '{}',
        [
          '()',
          'proc.deploy',
          ['$$', 'name', ['%%', 'p']],
          ['$$', 'proc', ['{}', ['()', 'core.echo']]],
        ],
      ],
    ])
    // Compiling wrote nothing.
    const read = await h.tuples(
      'keyv.get',
      [
        ['$$', 'bucket', 'b'],
        ['$$', 'key', 'k'],
      ],
      { accept: 'application/json' },
    )
    expect(read.json()).toBe(null)
  })

  it('reads rb when no lang is given, and takes its arguments as an object input too', async () => {
    expect((await compile('exec { core.ping }')).json()).toEqual([['{}', ['()', 'core.ping']]])
    const object = await h.call('core.compile', {
      contentType: 'application/json',
      body: JSON.stringify({ code: 'exec { core.ping }', lang: 'rb' }),
    })
    expect(JSON.parse(object.text)).toEqual([['{}', ['()', 'core.ping']]])
  })

  it('a program outside the language is a 400 naming the line, the column and what was expected', async () => {
    const response = await compile('exec {\n  core.echo("foo"\n}', 'rb')
    expect(response.status).toBe(400)
    expect(response.json()).toEqual({
      error: {
        message:
          "invalid argument `code' for `core.compile' (line 3, column 1: expected `,' or `)' after an argument, found `}')",
      },
    })
    const plain = await h.tuples('core.compile', [['$$', 'code', 'exec { Time.now }']], {
      accept: 'text/plain',
    })
    expect([plain.status, plain.text]).toEqual([
      400,
      "invalid argument `code' for `core.compile' (line 1, column 8: expected an expression, found `Time': constants are outside the language (it names calls and values, and runs nothing))",
    ])
  })

  it('an unknown lang is a 400 naming the ones there are', async () => {
    const response = await compile('print("hi")', 'py')
    expect([response.status, response.json()]).toEqual([
      400,
      {
        error: {
          message: "invalid argument `lang' for `core.compile' (`py' is not supported; use `rb')",
        },
      },
    ])
  })

  it('needs its code, as text', async () => {
    const none = await h.tuples('core.compile', [], { accept: 'text/plain' })
    expect([none.status, none.text]).toEqual([
      400,
      "invalid argument `code' for `core.compile' (is required)",
    ])
    const number = await h.tuples('core.compile', [['$$', 'code', 42]], { accept: 'text/plain' })
    expect(number.status).toBe(400)
  })

  it('a program whose tuples would be too large to answer is a 400, not a crash', async () => {
    const text = 'x'.repeat(50_000)
    const doubling = [
      `x = core.echo("${text}")`,
      ...Array.from({ length: 12 }, () => 'x = x.with(a: x, b: x)'),
      'exec { x }',
    ]
    const response = await compile(doubling.join('\n'), 'rb')
    expect([response.status, response.json()]).toEqual([
      400,
      { error: { message: "the output of `core.compile' is larger than 8388608 bytes" } },
    ])
  })

  it('names the service in the deploy calls it writes', async () => {
    const other = await createHarness({ serviceName: 'acme' })
    const response = await other.tuples('core.compile', [['$$', 'code', 'proc(name: "p") { a }']], {
      accept: 'application/json',
    })
    expect(response.json()).toEqual([
      [
        '{}',
        ['()', 'acme.deploy', ['$$', 'name', ['%%', 'p']], ['$$', 'proc', ['{}', ['()', 'a']]]],
      ],
    ])
  })
})

describe('core.exec with a compiled program', () => {
  const run = (code: string, args: unknown[] = [], accept = 'application/json') =>
    h.tuples(
      'core.exec',
      [
        [
          '$$',
          'proc',
          [
            '{}',
            ['()', 'core.compile', ['$$', 'code', ['%%', code]], ['$$', 'lang', ['%%', 'rb']]],
            ['()', 'core.exec'],
          ],
        ],
        ...args,
      ],
      { accept },
    )

  it('runs its exec blocks in order and answers the last one', async () => {
    const code = `exec { keyv.set(bucket: "b", key: "k", value: "one") }\nexec { keyv.get(bucket: "b", key: "k") .| type.string.upcase }`
    const response = await run(code)
    expect([response.status, response.json()]).toEqual([200, 'ONE'])
  })

  it('binds symbols and arg() to the arguments it is given', async () => {
    const code = 'exec { core.echo(:who) .| type.string.append(value: arg(:mark, default: "!")) }'
    expect((await run(code, [['$$', 'who', 'ada']])).json()).toBe('ada!')
    expect(
      (
        await run(code, [
          ['$$', 'who', 'ada'],
          ['$$', 'mark', '?'],
        ])
      ).json(),
    ).toBe('ada?')
    const missing = await run(code)
    expect([missing.status, missing.json()]).toEqual([
      400,
      { error: { message: "invalid argument `who' for `core.exec' (is required)" } },
    ])
  })

  it('leaves its procedure blocks alone: they only define', async () => {
    const code = 'proc(name: "p") { core.echo }\nexec { core.echo("ran") }'
    expect((await run(code)).json()).toBe('ran')
    expect((await h.call('lib.p', { body: 'x' })).status).toBe(404)
    expect((await run('proc(name: "p") { core.echo }')).json()).toBe(null)
  })

  it('runs it with the caller’s abilities, call by call', async () => {
    const token = await h.authorize({ abilities: ['core'] })
    const response = await h.tuples(
      'core.exec',
      [
        [
          '$$',
          'proc',
          [
            '{}',
            ['()', 'core.compile', ['$$', 'code', ['%%', 'exec { type.string.reverse("abc") }']]],
            ['()', 'core.exec'],
          ],
        ],
      ],
      { token, accept: 'text/plain' },
    )
    expect([response.status, response.text]).toEqual([
      401,
      "authorization does not have the ability to access proc `type.string.reverse'",
    ])
  })

  it('a program that does not compile is the 400 of core.compile', async () => {
    const response = await run('exec { core.echo(1, 2) }', [], 'text/plain')
    expect([response.status, response.text]).toEqual([
      400,
      "invalid argument `code' for `core.compile' (line 1, column 21: expected one input: a call takes one positional value, then `name: value' keywords)",
    ])
  })
})
