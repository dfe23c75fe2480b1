import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})

const shout = [
  '{}',
  ['()', 'type.string.upcase'],
  ['()', 'type.string.append', ['$$', 'value', ['@@', 'mark', { default: '!' }]]],
]

const manage = (verb: string, args: unknown[], token?: string) =>
  h.tuples(`service.${verb}`, args, token ? { token } : {})

describe('stored procedures', () => {
  it('are created, called at lib.<name>, updated and deleted', async () => {
    expect(
      (
        await manage('create', [
          ['$$', 'name', 'shout'],
          ['$$', 'proc', shout],
        ])
      ).json(),
    ).toEqual([['<<', true]])
    expect((await h.call('lib.shout', { body: 'hey' })).text).toBe('HEY!')
    expect((await h.call('lib.shout', { body: 'hey', query: { mark: '?' } })).text).toBe('HEY?')

    const whisper = ['{}', ['()', 'type.string.downcase']]
    expect(
      (
        await manage('update', [
          ['$$', 'name', 'shout'],
          ['$$', 'proc', whisper],
        ])
      ).status,
    ).toBe(200)
    expect((await h.call('lib.shout', { body: 'HEY' })).text).toBe('hey')

    expect((await manage('delete', [['$$', 'name', 'shout']])).status).toBe(200)
    const gone = await h.call('lib.shout', { body: 'x' })
    expect([gone.status, gone.text]).toEqual([404, "undefined service `lib.shout'"])
  })

  it('accept dotted names and a single call, and are usable inside compositions', async () => {
    await manage('create', [
      ['$$', 'name', 'text.flip'],
      ['$$', 'proc', ['()', 'type.string.reverse']],
    ])
    expect((await h.call('lib.text.flip', { body: 'abc' })).text).toBe('cba')
    const composed = await h.tuples('enum.map', [
      ['>>', ['%%', ['ab', 'cd']]],
      ['$$', 'proc', ['{}', ['()', 'lib.text.flip']]],
    ])
    expect(composed.json()).toEqual([['<<', ['ba', 'dc']]])
  })

  it('refuse bad names, bad procedures, duplicates and missing ones', async () => {
    for (const name of ['1abc', '_x', 'a..b', 'a.', 'a b', 'x'.repeat(65), '']) {
      const response = await manage('create', [
        ['$$', 'name', name],
        ['$$', 'proc', shout],
      ])
      expect([name, response.status]).toEqual([name, 400])
    }
    const notProc = await manage('create', [
      ['$$', 'name', 'x'],
      ['$$', 'proc', 'upcase'],
    ])
    expect(notProc.json()).toEqual([
      [
        '!!',
        {
          message:
            'invalid argument `proc\' for `service.create\' (must be a "{}" composition or a "()" call)',
        },
      ],
    ])
    await manage('create', [
      ['$$', 'name', 'x'],
      ['$$', 'proc', shout],
    ])
    const again = await manage('create', [
      ['$$', 'name', 'x'],
      ['$$', 'proc', shout],
    ])
    expect([again.status, again.json()]).toEqual([
      409,
      [['!!', { message: "stored procedure `lib.x' already exists; use service.update" }]],
    ])
    expect(
      (
        await manage('update', [
          ['$$', 'name', 'y'],
          ['$$', 'proc', shout],
        ])
      ).status,
    ).toBe(404)
    expect((await manage('delete', [['$$', 'name', 'y']])).status).toBe(404)
  })

  it('run with the account authority, but calling one needs lib.<name> or lib', async () => {
    await h.tuples('keyv.set', [
      ['>>', 'secret-note'],
      ['$$', 'value', 'hidden'],
    ])
    await manage('create', [
      ['$$', 'name', 'note'],
      ['$$', 'proc', ['{}', ['>>', 'secret-note'], ['()', 'keyv.get']]],
    ])
    const named = await h.authorize({ abilities: ['lib.note'] })
    expect((await h.call('lib.note', { token: named })).text).toBe('hidden')
    const pkg = await h.authorize({ abilities: ['lib'] })
    expect((await h.call('lib.note', { token: pkg })).text).toBe('hidden')
    const other = await h.authorize({ abilities: ['lib.other', 'keyv'] })
    const refused = await h.call('lib.note', { token: other })
    expect([refused.status, refused.text]).toEqual([
      401,
      "authorization does not have the ability to access service `lib.note'",
    ])
  })

  it('are managed only with insecure abilities', async () => {
    const plain = await h.tuples('auth.create', [['$$', 'abilities', ['service.update']]])
    expect(plain.status).toBe(400)
    const manager = await h.authorize({ abilities: ['service'], insecure: true })
    expect(
      (
        await manage(
          'create',
          [
            ['$$', 'name', 'm'],
            ['$$', 'proc', shout],
          ],
          manager,
        )
      ).status,
    ).toBe(200)
    const user = await h.authorize({ abilities: ['lib.m'] })
    expect(
      (
        await manage(
          'update',
          [
            ['$$', 'name', 'm'],
            ['$$', 'proc', shout],
          ],
          user,
        )
      ).status,
    ).toBe(401)
  })

  it('stop runaway recursion with the depth limit', async () => {
    await manage('create', [
      ['$$', 'name', 'loop'],
      ['$$', 'proc', ['{}', ['()', 'lib.loop']]],
    ])
    const response = await h.call('lib.loop', { body: 'x' })
    expect([response.status, response.text]).toEqual([
      400,
      'the call tree nests deeper than 64 levels',
    ])
  })

  it('are stored as tuples and survive export and import', async () => {
    await manage('create', [
      ['$$', 'name', 'shout'],
      ['$$', 'proc', shout],
    ])
    const exported = (await h.control('export')).body as {
      procs: Array<{ name: string; proc: unknown }>
    }
    expect(exported.procs).toMatchObject([{ name: 'shout' }])
    const other = await createHarness()
    await other.control('import', exported)
    expect((await other.call('lib.shout', { token: h.secret.key, body: 'a' })).text).toBe('A!')
  })
})
