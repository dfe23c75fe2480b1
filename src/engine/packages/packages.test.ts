import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})

const result = async (name: string, input: unknown, args: Record<string, unknown> = {}) => {
  const body: unknown[] = Object.entries(args).map(([key, value]) => ['$$', key, value])
  if (input !== undefined) body.unshift(['>>', input])
  const response = await h.tuples(name, body)
  return [response.status, (response.json() as [[string, unknown]])[0]] as const
}

describe('core', () => {
  it('pings, and echoes every input including null', async () => {
    expect(await result('core.ping', undefined)).toEqual([200, ['<<', true]])
    for (const value of [null, 0, '', [1, [2]], { a: null }]) {
      expect(await result('core.echo', value)).toEqual([200, ['<<', value]])
    }
  })

  it('sleeps on the engine clock and passes its input through', async () => {
    const before = h.clock.now()
    expect(await result('core.sleep', 'x', { seconds: 2 })).toEqual([200, ['<<', 'x']])
    expect(h.clock.now() - before).toBeGreaterThanOrEqual(2000)
    expect((await result('core.sleep', undefined, { seconds: -1 }))[0]).toBe(400)
  })
})

describe('type', () => {
  it.each([
    ['type.string.reverse', 'héllo 👋', {}, '👋 olléh'],
    ['type.string.capitalize', 'fOO bar', {}, 'Foo bar'],
    ['type.string.upcase', 'abc', {}, 'ABC'],
    ['type.string.downcase', 'ABC', {}, 'abc'],
    ['type.string.truncate', 'foobar', { length: 3 }, 'foo'],
    ['type.string.truncate', 'fo', { length: 3 }, 'fo'],
    ['type.string.append', 'foo', { value: 'bar' }, 'foobar'],
    ['type.string.length', 'a👋', {}, 2],
    ['type.number.add', 1.5, { value: 2 }, 3.5],
    ['type.array.flatten', [1, [2, [3, [4]]]], {}, [1, 2, 3, 4]],
    ['type.array.flatten', [1, [2, [3, [4]]]], { level: 1 }, [1, 2, [3, [4]]]],
  ])('%s(%j, %j) → %j', async (name, input, args, expected) => {
    expect(await result(name, input, args)).toEqual([200, ['<<', expected]])
  })

  it('refuses a wrong input type, no input, a missing argument and an uncoercible one', async () => {
    expect(await result('type.string.truncate', 12, { length: 1 })).toEqual([
      400,
      ['!!', { message: "service `type.string.truncate' does not accept the given input" }],
    ])
    expect(await result('type.string.reverse', undefined)).toEqual([
      400,
      ['!!', { message: "service `type.string.reverse' does not accept an undefined input" }],
    ])
    expect(await result('type.string.truncate', 'abc')).toEqual([
      400,
      ['!!', { message: "invalid argument `length' for `type.string.truncate' (is required)" }],
    ])
    expect(await result('type.string.truncate', 'abc', { length: [3] })).toEqual([
      400,
      [
        '!!',
        {
          message:
            "invalid argument `length' for `type.string.truncate' (given value could not be coerced into the defined type)",
        },
      ],
    ])
    expect((await result('type.string.truncate', 'abc', { length: -1 }))[0]).toBe(400)
    expect((await result('type.array.flatten', [1], { level: 1.5 }))[0]).toBe(400)
  })
})

describe('keyv', () => {
  it('sets, gets and deletes values of any JSON type, by bucket', async () => {
    const value = { list: [1, 'two', null], nested: { ok: true } }
    expect(await result('keyv.set', 'k', { value })).toEqual([200, ['<<', true]])
    expect(await result('keyv.get', 'k')).toEqual([200, ['<<', value]])
    expect(await result('keyv.get', 'k', { bucket: 'other' })).toEqual([200, ['<<', null]])
    expect(await result('keyv.set', undefined, { key: 'k', bucket: 'other', value: null })).toEqual(
      [200, ['<<', true]],
    )
    expect(await result('keyv.delete', 'k')).toEqual([200, ['<<', true]])
    expect(await result('keyv.get', 'k')).toEqual([200, ['<<', null]])
  })

  it('stores values up to 1 MiB, and refuses a larger one with 413, naming the limit', async () => {
    const grown = (appends: number) => [
      '{}',
      ['>>', ['@@', 's']],
      ...Array.from({ length: appends }, () => [
        '()',
        'type.string.append',
        ['$$', 'value', ['@@', 's']],
      ]),
    ]
    const s = 'x'.repeat(100_000)
    expect(await result('keyv.set', 'k', { s, value: grown(11) })).toEqual([
      413,
      ['!!', { message: "the value for key `k' is larger than the allowed 1048576 bytes" }],
    ])
    expect(await result('keyv.get', 'k')).toEqual([200, ['<<', null]])
    expect(await result('keyv.set', 'k', { s, value: grown(9) })).toEqual([200, ['<<', true]])
    const stored = await h.call('type.string.length', {
      contentType: h.vnd,
      body: JSON.stringify([['>>', ['()', 'keyv.get', ['>>', 'k']]]]),
      accept: 'text/plain',
    })
    expect(stored.text).toBe('1000000')
  })

  it('stores integer keys as strings', async () => {
    await result('keyv.set', 42, { value: 'answer' })
    expect(await result('keyv.get', '42')).toEqual([200, ['<<', 'answer']])
    expect(await result('keyv.scan', undefined)).toEqual([200, ['<<', ['42']]])
  })

  it('refuses a missing or malformed key, a key given twice, and a missing value', async () => {
    expect((await result('keyv.get', undefined))[0]).toBe(400)
    expect((await result('keyv.get', { a: 1 }))[0]).toBe(400)
    expect((await result('keyv.get', 'x'.repeat(1025)))[0]).toBe(400)
    expect((await result('keyv.get', 'a', { key: 'b' }))[0]).toBe(400)
    expect(await result('keyv.set', 'a')).toEqual([
      400,
      ['!!', { message: "invalid argument `value' for `keyv.set' (is required)" }],
    ])
  })

  it('scans in key order by page, with count, total, prefix and x-cursor', async () => {
    const keys = ['b', 'a/2', 'a/1', 'a/10', 'c', 'a']
    for (const key of keys) await result('keyv.set', key, { value: key })
    const all = await h.tuples('keyv.scan', [])
    expect(all.json()).toEqual([['<<', ['a', 'a/1', 'a/10', 'a/2', 'b', 'c']]])
    expect(all.headers.get('x-cursor')).toBe('')

    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const args: unknown[] = [['$$', 'count', 2]]
      if (cursor) args.push(['$$', 'cursor', cursor])
      const page = await h.tuples('keyv.scan', args)
      seen.push(...(page.json() as [[string, string[]]])[0][1])
      cursor = page.headers.get('x-cursor')
      pages++
    } while (cursor)
    expect([seen, pages]).toEqual([['a', 'a/1', 'a/10', 'a/2', 'b', 'c'], 3])

    const prefixed = await h.call('keyv.scan', { query: { prefix: 'a/' } })
    expect(prefixed.text).toBe('["a/1","a/10","a/2"]')
    const first = await h.call('keyv.scan', { query: { count: '2', total: '3' } })
    expect(first.text).toBe('["a","a/1"]')
    const rest = await h.call('keyv.scan', {
      query: { count: '2', cursor: first.headers.get('x-cursor')! },
    })
    expect([rest.text, rest.headers.get('x-cursor')]).toEqual(['["a/10"]', ''])
  })

  it('refuses a cursor that is tampered, or used for another bucket or prefix', async () => {
    for (const key of ['a', 'b', 'c']) await result('keyv.set', key, { value: 1 })
    const page = await h.call('keyv.scan', { query: { count: '1' } })
    const cursor = page.headers.get('x-cursor')!
    const tampered = cursor.slice(0, -2) + (cursor.at(-2) === 'A' ? 'B' : 'A') + cursor.at(-1)
    const queries: Array<Record<string, string>> = [
      { cursor: tampered },
      { cursor, bucket: 'other' },
      { cursor, prefix: 'a' },
      { cursor: 'garbage' },
    ]
    for (const query of queries) {
      const response = await h.call('keyv.scan', { query })
      expect([response.status, response.text]).toEqual([400, 'cursor is invalid'])
    }
    const bad = await h.call('keyv.scan', { query: { count: '0' } })
    expect(bad.status).toBe(400)
  })
})
