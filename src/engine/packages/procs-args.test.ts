import { describe, expect, it } from 'vitest'
import { createHarness } from '../../testing/engine-harness'

describe('arguments flowing into procedures', () => {
  it('reach them whatever their name, constructor and toString included', async () => {
    const h = await createHarness()
    const names = ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf']
    for (const name of names) {
      const created = await h.tuples('service.create', [
        ['$$', 'name', 'echo'],
        ['$$', 'proc', ['{}', ['()', 'type.string.upcase', ['>>', ['@@', name]]]]],
      ])
      expect(created.status).toBe(200)
      const stored = await h.call('lib.echo', { query: { [name]: 'hi' }, accept: 'text/plain' })
      expect([name, stored.status, stored.text]).toEqual([name, 200, 'HI'])
      const exec = await h.tuples(
        'core.exec',
        [
          ['$$', name, 'yo'],
          ['$$', 'proc', ['{}', ['()', 'type.string.upcase', ['>>', ['@@', name]]]]],
        ],
        { accept: 'text/plain' },
      )
      expect([name, exec.text]).toEqual([name, 'YO'])
      await h.tuples('service.delete', [['$$', 'name', 'echo']])
    }
  })
})
