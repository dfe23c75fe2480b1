// The real client's enumeration suite, in our words: 275 keys set once in beforeAll, then
// several tests that scan them. Each test starts from what beforeAll wrote, whatever the
// previous test deleted or added.
import { beforeAll, describe, expect, it } from 'vitest'
import { connect } from '../client.js'

const proc = connect(process.env.SECRET)
const expected = Array.from({ length: 275 }, (_, i) => String(i)).sort()

beforeAll(async () => {
  for (let i = 0; i < 275; i++)
    await proc.call('keyv.set', undefined, { bucket: 'enum', key: i, value: i })
})

describe('scanning a bucket', () => {
  it('returns every key, in pages of 100', async () => {
    expect(await proc.scan('enum')).toEqual(expected)
  })

  it('returns every key, in pages of 250', async () => {
    expect(await proc.scan('enum', { count: 250 })).toEqual(expected)
  })

  it('returns the keys under a prefix', async () => {
    expect(await proc.scan('enum', { prefix: '27' })).toEqual([
      '27',
      '270',
      '271',
      '272',
      '273',
      '274',
    ])
  })

  it('sees a key it deletes gone, within the test', async () => {
    await proc.call('keyv.delete', undefined, { bucket: 'enum', key: '5' })
    expect(await proc.scan('enum')).toHaveLength(274)
  })

  it('finds the deleted key back: the test before it is undone', async () => {
    expect(await proc.scan('enum')).toEqual(expected)
    await proc.call('keyv.set', undefined, { bucket: 'enum', key: 'extra', value: 1 })
  })

  it('has no key a previous test added', async () => {
    expect(await proc.scan('enum')).toHaveLength(275)
  })
})
