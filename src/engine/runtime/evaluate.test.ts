import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})

const reverse = ['()', 'type.string.reverse']
const capitalize = ['()', 'type.string.capitalize']

describe('the examples real clients send', () => {
  it('runs a composition given to core.exec as proc', async () => {
    const response = await h.tuples('core.exec', [
      ['$$', 'proc', ['{}', ['>>', ['%%', 'foo']], reverse, capitalize]],
    ])
    expect([response.status, response.json()]).toEqual([200, [['<<', 'Oof']]])
  })

  it('names a missing reference like a missing argument', async () => {
    const response = await h.tuples('type.string.truncate', [
      ['>>', ['%%', 'foo']],
      ['$$', 'length', ['@@', 'truncate_to', {}]],
    ])
    expect([response.status, response.json()]).toEqual([
      400,
      [
        [
          '!!',
          { message: "invalid argument `truncate_to' for `type.string.truncate' (is required)" },
        ],
      ],
    ])
  })

  it('maps a procedure over an array', async () => {
    const response = await h.tuples('enum.map', [
      ['>>', ['%%', ['foo', 'bar']]],
      ['$$', 'proc', ['{}', reverse]],
    ])
    expect([response.status, response.json()]).toEqual([200, [['<<', ['oof', 'rab']]]])
  })
})

describe('evaluation rules', () => {
  it('evaluates a composition in input and argument position first', async () => {
    const input = await h.tuples('type.string.upcase', [['>>', ['{}', ['>>', 'ab'], reverse]]])
    expect(input.json()).toEqual([['<<', 'BA']])
    const arg = await h.tuples('type.string.append', [
      ['>>', 'x'],
      ['$$', 'value', ['{}', ['>>', 'yz'], reverse]],
    ])
    expect(arg.json()).toEqual([['<<', 'xzy']])
  })

  it('pipes each output into the next call, unless the call has its own input', async () => {
    const response = await h.tuples('core.exec', [
      ['$$', 'proc', ['{}', ['>>', 'abc'], reverse, ['()', 'type.string.upcase', ['>>', 'own']]]],
    ])
    expect(response.json()).toEqual([['<<', 'OWN']])
  })

  it("shows a composition's own arguments to its calls only through @@", async () => {
    const proc = [
      '{}',
      ['>>', 'foobar'],
      ['$$', 'length', 2],
      ['()', 'type.string.truncate', ['$$', 'length', ['@@', 'length']]],
    ]
    expect((await h.tuples('core.exec', [['$$', 'proc', proc]])).json()).toEqual([['<<', 'fo']])
    const unreferenced = [
      '{}',
      ['>>', 'foobar'],
      ['$$', 'length', 2],
      ['()', 'type.string.truncate'],
    ]
    const response = await h.tuples('core.exec', [['$$', 'proc', unreferenced]])
    expect(response.json()).toEqual([
      ['!!', { message: "invalid argument `length' for `type.string.truncate' (is required)" }],
    ])
  })

  it('resolves references from enclosing compositions, with defaults and types', async () => {
    const inner = [
      '{}',
      ['()', 'type.string.truncate', ['$$', 'length', ['@@', 'n', { type: 'integer' }]]],
    ]
    const proc = [
      '{}',
      ['>>', 'abcdef'],
      ['$$', 'n', '3'],
      ['()', 'core.exec', ['$$', 'proc', inner]],
    ]
    expect((await h.tuples('core.exec', [['$$', 'proc', proc]])).json()).toEqual([['<<', 'abc']])

    const fallback = [
      '{}',
      ['>>', 'abcdef'],
      ['()', 'type.string.truncate', ['$$', 'length', ['@@', 'n', { default: 2 }]]],
    ]
    expect((await h.tuples('core.exec', [['$$', 'proc', fallback]])).json()).toEqual([['<<', 'ab']])

    const composedDefault = [
      '{}',
      ['>>', 'abcdef'],
      [
        '()',
        'type.string.truncate',
        [
          '$$',
          'length',
          ['@@', 'n', { default: ['{}', ['>>', 'xyz'], ['()', 'type.string.length']] }],
        ],
      ],
    ]
    expect((await h.tuples('core.exec', [['$$', 'proc', composedDefault]])).json()).toEqual([
      ['<<', 'abc'],
    ])

    const badType = [
      '{}',
      ['>>', 'a'],
      ['()', 'type.string.append', ['$$', 'value', ['@@', 'v', { type: 'integer', default: 'x' }]]],
    ]
    const refused = await h.tuples('core.exec', [['$$', 'proc', badType]])
    expect(refused.status).toBe(400)
    const unknownType = [
      '{}',
      ['>>', 'a'],
      ['()', 'type.string.append', ['$$', 'value', ['@@', 'v', { type: 'date', default: 'x' }]]],
    ]
    expect((await h.tuples('core.exec', [['$$', 'proc', unknownType]])).status).toBe(400)
  })

  it('resolves top-level references from sibling arguments', async () => {
    const response = await h.tuples('type.string.truncate', [
      ['>>', 'foobar'],
      ['$$', 'truncate_to', 4],
      ['$$', 'length', ['@@', 'truncate_to']],
    ])
    expect(response.json()).toEqual([['<<', 'foob']])
  })

  it('lets arguments given to core.exec flow into the composition, over its own', async () => {
    const proc = [
      '{}',
      ['$$', 'suffix', '!'],
      ['()', 'type.string.append', ['$$', 'value', ['@@', 'suffix']]],
    ]
    const given = await h.tuples('core.exec', [
      ['>>', 'hi'],
      ['$$', 'proc', proc],
      ['$$', 'suffix', '?'],
    ])
    expect(given.json()).toEqual([['<<', 'hi?']])
    const own = await h.tuples('core.exec', [
      ['>>', 'hi'],
      ['$$', 'proc', proc],
    ])
    expect(own.json()).toEqual([['<<', 'hi!']])
    const query = await h.call('core.exec', {
      contentType: h.vnd,
      body: JSON.stringify([
        ['>>', 'hi'],
        ['$$', 'proc', proc],
      ]),
      query: { suffix: '.' },
    })
    expect(query.json()).toEqual([['<<', 'hi.']])
  })

  it('tells no input from null input', async () => {
    const none = await h.tuples('core.exec', [['$$', 'proc', ['{}', ['()', 'core.echo']]]])
    expect(none.json()).toEqual([
      ['!!', { message: "service `core.echo' does not accept an undefined input" }],
    ])
    const nothing = await h.tuples('core.exec', [
      ['>>', null],
      ['$$', 'proc', ['{}', ['()', 'core.echo']]],
    ])
    expect(nothing.json()).toEqual([['<<', null]])
  })

  it('keeps %% literals as data, even when they look like calls', async () => {
    await h.tuples('keyv.set', [
      ['>>', 'k'],
      ['$$', 'value', 1],
    ])
    const call = ['()', 'keyv.delete', ['>>', 'k']]
    const echoed = await h.tuples('core.echo', [['>>', ['%%', call]]])
    expect(echoed.json()).toEqual([['<<', call]])
    expect((await h.tuples('keyv.get', [['>>', 'k']])).json()).toEqual([['<<', 1]])
    const array = await h.tuples('type.number.add', [
      ['>>', 1],
      ['$$', 'value', ['%%', [1]]],
    ])
    expect(array.json()).toEqual([
      [
        '!!',
        {
          message:
            "invalid argument `value' for `type.number.add' (given value could not be coerced into the defined type)",
        },
      ],
    ])
  })

  it('does not evaluate procedure arguments before the call', async () => {
    const proc = ['{}', ['()', 'type.string.reverse']]
    const response = await h.tuples('enum.map', [
      ['>>', ['%%', []]],
      ['$$', 'proc', proc],
    ])
    expect(response.json()).toEqual([['<<', []]])
  })

  it('runs a tuple tree given to core.exec as data, and returns an evaluated value as is', async () => {
    const tree = ['{}', ['>>', ['%%', 'abc']], reverse]
    const json = await h.call('core.exec', {
      contentType: 'application/json',
      body: JSON.stringify(tree),
    })
    expect(json.text).toBe('"cba"')
    const evaluated = await h.tuples('core.exec', [['>>', tree]])
    expect(evaluated.json()).toEqual([['<<', 'cba']])
    const missing = await h.tuples('core.exec', [])
    expect(missing.status).toBe(400)
    const notAProc = await h.tuples('enum.map', [
      ['>>', ['%%', [1]]],
      ['$$', 'proc', 'reverse'],
    ])
    expect(notAProc.json()).toEqual([
      ['!!', { message: '`enum.map\' runs a procedure: give a "{}" composition or a "()" call' }],
    ])
  })

  it('reads a procedure from the query string as JSON text', async () => {
    const proc = JSON.stringify(['{}', ['()', 'type.string.reverse'], ['()', 'type.string.upcase']])
    const response = await h.call('enum.map', {
      contentType: 'application/json',
      body: '["ab","cd"]',
      query: { proc },
    })
    expect(response.json()).toEqual(['BA', 'DC'])
    const words = await h.call('core.exec', { body: 'x', query: { proc: 'reverse' } })
    expect(words.status).toBe(400)
  })

  it('answers 404 for an unknown endpoint at any depth', async () => {
    const response = await h.tuples('core.exec', [
      ['$$', 'proc', ['{}', ['>>', 1], ['()', 'no.such.thing']]],
    ])
    expect([response.status, response.json()]).toEqual([
      404,
      [['!!', { message: "undefined service `no.such.thing'" }]],
    ])
  })
})

describe('abilities on inner calls', () => {
  it('checks every call at every depth; core.exec covers nothing it runs', async () => {
    const token = await h.authorize({ abilities: ['core.exec', 'enum.map', 'type.string.reverse'] })
    const ok = await h.tuples('core.exec', [['$$', 'proc', ['{}', ['>>', 'ab'], reverse]]], {
      token,
    })
    expect(ok.json()).toEqual([['<<', 'ba']])
    const deep = [
      '{}',
      ['>>', ['%%', ['ab']]],
      ['()', 'enum.map', ['$$', 'proc', ['{}', reverse, ['()', 'type.string.upcase']]]],
    ]
    const refused = await h.tuples('core.exec', [['$$', 'proc', deep]], { token })
    expect([refused.status, refused.json()]).toEqual([
      401,
      [
        [
          '!!',
          {
            message:
              "authorization does not have the ability to access service `type.string.upcase'",
          },
        ],
      ],
    ])
    const inArg = await h.tuples(
      'type.string.reverse',
      [
        ['>>', 'x'],
        ['$$', 'unused', ['()', 'keyv.get', ['>>', 'k']]],
      ],
      { token },
    )
    expect(inArg.status).toBe(200)
    const inInput = await h.tuples(
      'type.string.reverse',
      [['>>', ['()', 'keyv.get', ['>>', 'k']]]],
      { token },
    )
    expect(inInput.status).toBe(401)
  })
})

describe('enumerations across pages', () => {
  it('feeds a keyv.scan page to enum.map and keeps x-cursor paging the same as plain calls', async () => {
    for (const key of ['a', 'b', 'c', 'd', 'e'])
      await h.tuples('keyv.set', [
        ['>>', key],
        ['$$', 'value', key.toUpperCase()],
      ])
    const composed = (cursor?: string) =>
      h.tuples('core.exec', [
        [
          '$$',
          'proc',
          [
            '{}',
            ['()', 'keyv.scan', ['$$', 'count', 2], ...(cursor ? [['$$', 'cursor', cursor]] : [])],
            ['()', 'enum.map', ['$$', 'proc', ['{}', ['()', 'keyv.get']]]],
          ],
        ],
      ])
    const values: unknown[] = []
    let cursor: string | undefined
    do {
      const page = await composed(cursor)
      values.push(...(page.json() as [[string, unknown[]]])[0][1])
      cursor = page.headers.get('x-cursor') || undefined
    } while (cursor)
    expect(values).toEqual(['A', 'B', 'C', 'D', 'E'])

    const plain = await h.call('keyv.scan', { query: { count: '2' } })
    const viaExec = await composed()
    const plainCursor = plain.headers.get('x-cursor')!
    const next = await h.call('keyv.scan', {
      query: { count: '2', cursor: viaExec.headers.get('x-cursor')! },
    })
    const nextPlain = await h.call('keyv.scan', { query: { count: '2', cursor: plainCursor } })
    expect(next.text).toBe(nextPlain.text)
  })
})
