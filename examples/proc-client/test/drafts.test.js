import { expect, it } from 'vitest'
import { connect } from '../client.js'

const proc = connect(process.env.SECRET)

it('keeps a draft under the same key as the notes file, without seeing it', async () => {
  expect(await proc.call('keyv.scan', undefined, { bucket: 'notes' })).toEqual([])
  await proc.call('keyv.set', undefined, { bucket: 'notes', key: 'shared', value: 'from drafts' })
  expect(await proc.call('keyv.get', 'shared', { bucket: 'notes' })).toBe('from drafts')
})
