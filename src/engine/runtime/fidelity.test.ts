import { describe, expect, it } from 'vitest'
import { createHarness } from '../../testing/engine-harness'
import { fidelityCases } from './fidelity-cases'

describe('what real clients send, answered as the real service does', () => {
  for (const c of fidelityCases) {
    it(c.title, async () => {
      const h = await createHarness({ serviceName: 'proc' })
      const answer = await h.tuples(c.endpoint, c.body, {
        accept: 'application/json',
        ...(c.query ? { query: c.query } : {}),
      })
      expect(answer.status, answer.text).toBe(c.status)
      if (c.status === 200) expect(answer.json()).toEqual(c.result)
      else if (typeof c.message === 'string')
        expect(answer.json()).toEqual({ error: { message: c.message } })
      else
        expect((answer.json() as { error: { message: string } }).error.message).toMatch(c.message!)
    })
  }

  it('auth.create reads its arguments from an object input, as the real client sends them', async () => {
    const h = await createHarness({ serviceName: 'proc' })
    const minted = await h.tuples('auth.create', [['>>', ['%%', { abilities: ['type'] }]]], {
      accept: 'text/plain',
    })
    expect(minted.status, minted.text).toBe(200)
    const token = minted.text
    const allowed = await h.tuples('type.string.reverse', [['>>', 'abc']], {
      token,
      accept: 'text/plain',
    })
    expect([allowed.status, allowed.text]).toEqual([200, 'cba'])
    const refused = await h.tuples('core.echo', [['>>', 'abc']], { token, accept: 'text/plain' })
    expect([refused.status, refused.text]).toEqual([
      401,
      "authorization does not have the ability to access proc `core.echo'",
    ])
  })

  it('a stored procedure’s composition sees its own arguments in its input', async () => {
    const h = await createHarness({ serviceName: 'proc' })
    const created = await h.tuples('proc.create', [
      ['$$', 'name', 'greet'],
      [
        '$$',
        'proc',
        ['{}', ['>>', ['@@', 'who', { default: 'ada' }]], ['()', 'type.string.capitalize']],
      ],
    ])
    expect(created.status, created.text).toBe(200)
    const called = await h.tuples('lib.greet', [], { accept: 'application/json' })
    expect([called.status, called.json()]).toEqual([200, 'Ada'])
  })
})
