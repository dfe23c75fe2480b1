import { expect, it } from 'vitest'
import { connect } from '../client.js'

const proc = connect(process.env.SECRET)

// Both files write the same key: they pass in parallel only because each has its own account.
it('keeps a note, and starts from an empty bucket', async () => {
  expect(await proc.call('keyv.scan', undefined, { bucket: 'notes' })).toEqual([])
  await proc.call('keyv.set', undefined, { bucket: 'notes', key: 'shared', value: 'from notes' })
  expect(await proc.call('keyv.get', 'shared', { bucket: 'notes' })).toBe('from notes')
})

it('starts the next test from the same state', async () => {
  expect(await proc.call('keyv.get', 'shared', { bucket: 'notes' })).toBe(null)
})
