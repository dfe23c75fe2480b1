import fc from 'fast-check'
import { expect, it } from 'vitest'
import type { Json } from '../../engine/store'
import type { ContractContext } from './fixtures'
import { scanPaged, setKeys, sortKeys } from './fixtures'

/** Keys whose order trips up naive comparisons and naive `prefix + '\uffff'` bounds. */
const awkwardKeys = [
  'b',
  'a/b',
  '\uffff',
  'a0',
  '10',
  'é',
  '',
  'a',
  '9',
  'A',
  'a\uffff',
  'a\uffff\uffff',
  'a\uffff\uffffx',
  'a\uffffz',
  '\ud83d\ude00',
  '\uffff\uffff',
]

const values: [string, Json][] = [
  ['null', null],
  ['booleans', [true, false]],
  ['numbers', [0, -1.5, 1e300, Number.MAX_SAFE_INTEGER]],
  ['unicode', 'Zoë 😀 \u0000 \uffff 日本'],
  ['empty', { '': '', list: [], object: {} }],
  ['nested', { a: [{ b: { c: [null, 'd', { e: 1 }] } }], 'ü-key': 'v' }],
]

/** The keyv store: reads and writes, value fidelity, and `scanKeys`. */
export function keyvContract({ store }: ContractContext): void {
  it('sets, gets, overwrites and deletes keys', async () => {
    expect(await store().getKey('b', 'k')).toBeUndefined()
    await store().commit([{ op: 'setKey', bucket: 'b', key: 'k', value: 1 }])
    await store().commit([{ op: 'setKey', bucket: 'b', key: 'k', value: 2 }])
    expect(await store().getKey('b', 'k')).toBe(2)
    await store().commit([
      { op: 'deleteKey', bucket: 'b', key: 'k' },
      { op: 'deleteKey', bucket: 'b', key: 'never-there' },
    ])
    expect(await store().getKey('b', 'k')).toBeUndefined()
    expect(await store().scanKeys('b', { prefix: '', limit: 10 })).toEqual([])
  })

  it.each(values)('round-trips %s values exactly', async (key, value) => {
    await store().commit([{ op: 'setKey', bucket: 'v', key, value }])
    expect(await store().getKey('v', key)).toStrictEqual(value)
    expect(await store().scanKeys('v', { prefix: key, limit: 10 })).toEqual([key])
  })

  it('stores copies: changing what went in or came out changes nothing', async () => {
    const value: { list: Json[] } = { list: [1] }
    await store().commit([{ op: 'setKey', bucket: 'b', key: 'k', value }])
    value.list.push(2)
    const out = (await store().getKey('b', 'k')) as { list: Json[] }
    out.list.push(3)
    expect(await store().getKey('b', 'k')).toEqual({ list: [1] })
  })

  it('scans keys in code-unit order, empty key included', async () => {
    await store().commit(setKeys('b', awkwardKeys))
    const all = await store().scanKeys('b', { prefix: '', limit: 100 })
    expect(all).toEqual(sortKeys(awkwardKeys))
    expect(all.slice(0, 6)).toEqual(['', '10', '9', 'A', 'a', 'a/b'])
    expect(all.slice(-4)).toEqual(['é', '\ud83d\ude00', '\uffff', '\uffff\uffff'])
  })

  it.each([
    ['a', ['a', 'a/b', 'a0', 'a\uffff', 'a\uffffz', 'a\uffff\uffff', 'a\uffff\uffffx']],
    ['a\uffff', ['a\uffff', 'a\uffffz', 'a\uffff\uffff', 'a\uffff\uffffx']],
    ['a\uffff\uffff', ['a\uffff\uffff', 'a\uffff\uffffx']],
    ['\uffff', ['\uffff', '\uffff\uffff']],
    ['a/', ['a/b']],
    ['1', ['10']],
    ['é', ['é']],
    ['\ud83d', ['\ud83d\ude00']],
    ['zzz', []],
  ])('scans only the keys with prefix %j', async (prefix, expected) => {
    await store().commit(setKeys('b', awkwardKeys))
    expect(await store().scanKeys('b', { prefix, limit: 100 })).toEqual(expected)
  })

  it.each([
    ['a', 'a', ['a/b', 'a0', 'a\uffff']],
    ['a', 'a05', ['a\uffff', 'a\uffffz', 'a\uffff\uffff']],
    ['a', '0', ['a', 'a/b', 'a0']],
    ['a', 'a\uffffz', ['a\uffff\uffff', 'a\uffff\uffffx']],
    ['a', 'a\uffff\uffffx', []],
    ['a', 'b', []],
    ['', '', ['10', '9', 'A']],
    ['\uffff', '\uffff', ['\uffff\uffff']],
  ])('scans prefix %j strictly after %j', async (prefix, after, expected) => {
    await store().commit(setKeys('b', awkwardKeys))
    expect(await store().scanKeys('b', { prefix, after, limit: 3 })).toEqual(expected)
  })

  it('returns at most limit keys, none for a limit of 0', async () => {
    await store().commit(setKeys('b', awkwardKeys))
    expect(await store().scanKeys('b', { prefix: 'a', limit: 2 })).toEqual(['a', 'a/b'])
    expect(await store().scanKeys('b', { prefix: 'a', limit: 0 })).toEqual([])
  })

  it('pages through a bucket, three keys at a time, every key once and in order', async () => {
    await store().commit(setKeys('b', awkwardKeys))
    expect(await scanPaged(store(), 'b', '', 3)).toEqual(sortKeys(awkwardKeys))
    expect(await scanPaged(store(), 'b', 'a', 3)).toEqual(
      sortKeys(awkwardKeys.filter((key) => key.startsWith('a'))),
    )
  })

  it('keeps buckets apart, whatever their names share', async () => {
    await store().commit([
      ...setKeys('a', ['x', 'bx']),
      ...setKeys('ab', ['x']),
      ...setKeys('', ['ax']),
      ...setKeys('a\u0000', ['y']),
    ])
    await store().commit([{ op: 'setKey', bucket: 'ab', key: 'x', value: 'in ab' }])
    expect(await store().scanKeys('a', { prefix: '', limit: 10 })).toEqual(['bx', 'x'])
    expect(await store().scanKeys('ab', { prefix: '', limit: 10 })).toEqual(['x'])
    expect(await store().scanKeys('', { prefix: '', limit: 10 })).toEqual(['ax'])
    expect(await store().scanKeys('a', { prefix: 'b', limit: 10 })).toEqual(['bx'])
    expect(await store().scanKeys('nope', { prefix: '', limit: 10 })).toEqual([])
    expect(await store().getKey('a', 'x')).toBe('x')
    expect(await store().getKey('ab', 'x')).toBe('in ab')
    expect(await store().getKey('a', 'bx')).toBe('bx')
  })

  it('agrees with a model on random keys, prefixes, afters and limits', async () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '/', 'é', '\uffff'), maxLength: 4 })
    let run = 0
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(text, { maxLength: 12 }),
        text,
        fc.option(text, { nil: undefined }),
        fc.integer({ min: 1, max: 5 }),
        async (keys, prefix, after, limit) => {
          const bucket = `run-${run++}`
          await store().commit(setKeys(bucket, keys))
          const expected = sortKeys(keys)
            .filter((key) => key.startsWith(prefix) && (after === undefined || key > after))
            .slice(0, limit)
          expect(await store().scanKeys(bucket, { prefix, after, limit })).toEqual(expected)
        },
      ),
      { numRuns: 100 },
    )
  })

  // How the time grows with the bucket is measured by `npm run bench -- store`.
  it('scans a 5,000-key bucket in pages of 250, each key once, in order', async () => {
    const pad = (i: number) => String(i).padStart(4, '0')
    const keys = Array.from({ length: 5000 }, (_, i) => `k/${pad(i)}`)
    await store().commit([
      ...setKeys('big', [...keys].reverse()),
      ...setKeys('big', ['j', 'l', 'k']),
      ...setKeys('bif', keys.slice(0, 500)),
      ...setKeys('bih', keys.slice(0, 500)),
    ])
    expect(await scanPaged(store(), 'big', 'k/', 250)).toEqual(keys)
  })
}
