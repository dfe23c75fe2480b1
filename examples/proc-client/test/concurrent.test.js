// Fixtures per describe block, and tests that run at the same time: none sees another's
// writes wiped, and each block's setup is gone after the block.
import { beforeAll, describe, expect, it } from 'vitest'
import { connect } from '../client.js'

const proc = connect(process.env.SECRET)

beforeAll(async () => {
  await proc.call('keyv.set', undefined, { bucket: 'settings', key: 'theme', value: 'dark' })
})

describe('a block with its own fixtures', () => {
  beforeAll(async () => {
    await proc.call('keyv.set', undefined, { bucket: 'cart', key: 'apples', value: 3 })
  })

  it.concurrent('adds pears', async () => {
    await proc.call('keyv.set', undefined, { bucket: 'cart', key: 'pears', value: 2 })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(await proc.call('keyv.get', undefined, { bucket: 'cart', key: 'pears' })).toBe(2)
    expect(await proc.call('keyv.get', undefined, { bucket: 'cart', key: 'apples' })).toBe(3)
  })

  it.concurrent('adds plums', async () => {
    await proc.call('keyv.set', undefined, { bucket: 'cart', key: 'plums', value: 5 })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(await proc.call('keyv.get', undefined, { bucket: 'cart', key: 'plums' })).toBe(5)
    expect(await proc.call('keyv.get', undefined, { bucket: 'settings', key: 'theme' })).toBe(
      'dark',
    )
  })
})

describe('after the block', () => {
  it('has the file fixtures, and none of the block', async () => {
    expect(await proc.call('keyv.get', undefined, { bucket: 'settings', key: 'theme' })).toBe(
      'dark',
    )
    expect(await proc.scan('cart')).toEqual([])
  })
})
