// Each concurrent test runs on a copy of the service of its own (in process), or an account of
// its own forked from the file's (over `serve`), under Vitest and Jest alike: siblings writing
// the same key never see each other's value, and none of it outlives them.
import { describe, expect, it } from 'vitest'
import { connect } from '../client.js'

const proc = connect(process.env.SECRET)

describe('concurrent tests on one key', () => {
  for (const value of [1, 2, 3]) {
    it.concurrent(`writes ${value} and reads it back`, async () => {
      await proc.call('keyv.set', undefined, { bucket: 'race', key: 'k', value })
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(await proc.call('keyv.get', undefined, { bucket: 'race', key: 'k' })).toBe(value)
    })
  }

  it('finds none of their writes after them', async () => {
    expect(await proc.scan('race')).toEqual([])
  })
})
