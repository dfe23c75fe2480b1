import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})

/** Calls `name` with a JSON input (or none) and tuple arguments; status and JSON answer. */
async function call(name: string, input: unknown, args: Record<string, unknown> = {}) {
  const body = [
    ...(input === undefined ? [] : [['>>', ['%%', input]]]),
    ...Object.entries(args).map(([key, value]) => ['$$', key, ['%%', value]]),
  ]
  const response = await h.tuples(name, body, { accept: 'application/json' })
  return [response.status, response.json()]
}

describe('type.array and type.hash', () => {
  it('build: the input array, the input as one element, or empty', async () => {
    expect(await call('type.array.build', [1, 2])).toEqual([200, [1, 2]])
    expect(await call('type.array.build', 'a')).toEqual([200, ['a']])
    expect(await call('type.array.build', null)).toEqual([200, [null]])
    expect(await call('type.array.build', undefined)).toEqual([200, []])
  })

  it('append adds value at the end, whatever it is', async () => {
    expect(await call('type.array.append', ['a'], { value: { b: 1 } })).toEqual([
      200,
      ['a', { b: 1 }],
    ])
    expect(await call('type.array.append', [], { value: null })).toEqual([200, [null]])
    const [status] = await call('type.array.append', 'a', { value: 1 })
    expect(status).toBe(400)
    expect((await call('type.array.append', []))[1]).toEqual({
      error: { message: "invalid argument `value' for `type.array.append' (is required)" },
    })
  })

  it('join writes the elements with separator between, as Ruby does', async () => {
    expect(
      await call('type.array.join', ['a', 1, 2.5, true, null, ['b', ['c']]], { separator: ':' }),
    ).toEqual([200, 'a:1:2.5:true::b:c'])
    expect(await call('type.array.join', ['a', 'b'])).toEqual([200, 'ab'])
    expect(await call('type.array.join', ['a', { b: 1 }], { separator: ',' })).toEqual([
      400,
      {
        error: {
          message:
            "`type.array.join' joins strings, numbers, booleans and nil; element 1 is an object",
        },
      },
    ])
    expect((await call('type.array.join', [['a', {}]]))[0]).toBe(400)
  })

  it('value reads an element, from the end when the index is negative, null past the ends', async () => {
    expect(await call('type.array.value', ['a', 'b', 'c'], { index: 1 })).toEqual([200, 'b'])
    expect(await call('type.array.value', ['a', 'b', 'c'], { index: -1 })).toEqual([200, 'c'])
    expect(await call('type.array.value', ['a'], { index: 5 })).toEqual([200, null])
    expect(await call('type.array.value', ['a'], { index: -2 })).toEqual([200, null])
    expect((await call('type.array.value', ['a'], { index: 'x' }))[0]).toBe(400)
  })

  it('hash.value reads a member, null when there is none', async () => {
    expect(await call('type.hash.value', { a: { b: 1 } }, { key: 'a' })).toEqual([200, { b: 1 }])
    expect(await call('type.hash.value', { a: 1 }, { key: 'z' })).toEqual([200, null])
    expect(await call('type.hash.value', {}, { key: 'constructor' })).toEqual([200, null])
    expect(await call('type.hash.value', [1], { key: '0' })).toEqual([
      400,
      { error: { message: "service `type.hash.value' does not accept the given input" } },
    ])
  })
})
