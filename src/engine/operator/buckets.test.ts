import { describe, expect, it } from 'vitest'
import { createHarness } from '../../testing/engine-harness'

describe('GET /_account/buckets', () => {
  it('lists every bucket with its count of keys, by name, following writes', async () => {
    const h = await createHarness()
    expect(await h.control('buckets')).toEqual({ status: 200, body: [] })
    for (const [bucket, key] of [
      ['users', 'bob'],
      ['users', 'alice'],
      ['default', 'k'],
      ['users', 'alice'],
    ]) {
      const response = await h.tuples('keyv.set', [
        ['$$', 'bucket', bucket],
        ['$$', 'key', key],
        ['$$', 'value', 1],
      ])
      expect(response.status).toBe(200)
    }
    expect(await h.control('buckets')).toEqual({
      status: 200,
      body: [
        { bucket: 'default', keys: 1 },
        { bucket: 'users', keys: 2 },
      ],
    })
    await h.tuples('keyv.delete', [['>>', 'k']])
    expect((await h.control('buckets')).body).toEqual([{ bucket: 'users', keys: 2 }])
  })

  it('answers GET only', async () => {
    const h = await createHarness()
    expect((await h.control('buckets', {})).status).toBe(405)
  })
})
