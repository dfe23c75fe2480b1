import { expect, it } from 'vitest'
import type { Json } from '../../engine/store'
import { StoreConflictError } from '../../engine/store'
import type { ContractContext } from './fixtures'
import { proc, secret } from './fixtures'

/** Meta, secrets (with the `expectSecret` precondition) and procedures. */
export function recordContract({ store }: ContractContext): void {
  it('puts and gets meta, overwriting', async () => {
    expect(await store().getMeta('k')).toBeUndefined()
    await store().commit([{ op: 'putMeta', key: 'k', value: 1 }])
    await store().commit([{ op: 'putMeta', key: 'k', value: { n: 2 } }])
    expect(await store().getMeta('k')).toEqual({ n: 2 })
  })

  it('initMeta writes only when the key holds nothing, not even null', async () => {
    await store().commit([{ op: 'initMeta', key: 'k', value: 'first' }])
    await store().commit([{ op: 'initMeta', key: 'k', value: 'second' }])
    expect(await store().getMeta('k')).toBe('first')
    await store().commit([
      { op: 'putMeta', key: 'n', value: null },
      { op: 'initMeta', key: 'n', value: 'late' },
      { op: 'initMeta', key: 'm', value: 'once' },
      { op: 'initMeta', key: 'm', value: 'twice' },
    ])
    expect(await store().getMeta('n')).toBeNull()
    expect(await store().getMeta('m')).toBe('once')
  })

  it('deletes meta entries and secrets, and deleting nothing is no error', async () => {
    await store().commit([
      { op: 'putMeta', key: 'k', value: 1 },
      { op: 'putMeta', key: 'kept', value: 2 },
      { op: 'putSecret', secret: secret('s', 1) },
      { op: 'putSecret', secret: secret('t', 2) },
    ])
    await store().commit([
      { op: 'deleteMeta', key: 'k' },
      { op: 'deleteMeta', key: 'never' },
      { op: 'deleteSecret', id: 's' },
      { op: 'deleteSecret', id: 'never' },
    ])
    expect(await store().getMeta('k')).toBeUndefined()
    expect(await store().getMeta('kept')).toBe(2)
    expect(await store().getSecret('s')).toBeUndefined()
    expect((await store().listSecrets()).map((s) => s.id)).toEqual(['t'])
    expect(Object.keys((await store().snapshot()).meta)).toEqual(['kept'])
    // A deleted secret can be put again under its id.
    await store().commit([{ op: 'putSecret', secret: secret('s', 3) }])
    expect(await store().getSecret('s')).toEqual(secret('s', 3))
  })

  it('puts, gets and replaces secrets', async () => {
    expect(await store().getSecret('s')).toBeUndefined()
    await store().commit([{ op: 'putSecret', secret: secret('s', 1) }])
    expect(await store().getSecret('s')).toEqual(secret('s', 1))
    await store().commit([{ op: 'putSecret', secret: secret('s', 1, { rolledTo: 't' }) }])
    expect(await store().getSecret('s')).toEqual(secret('s', 1, { rolledTo: 't' }))
  })

  it('lists secrets oldest first, then by id', async () => {
    const secrets = [secret('c', 1), secret('b', 2.5), secret('a', 2.5), secret('d', 0.5)]
    await store().commit(secrets.map((s) => ({ op: 'putSecret', secret: s })))
    expect((await store().listSecrets()).map((s) => s.id)).toEqual(['d', 'c', 'a', 'b'])
  })

  it('commits when every expectSecret holds, seeing earlier mutations of the commit', async () => {
    await store().commit([{ op: 'putSecret', secret: secret('s', 1, { expiresAt: 5 }) }])
    await store().commit([
      { op: 'expectSecret', id: 's', rolledTo: null, expiresAt: 5 },
      { op: 'putSecret', secret: secret('s', 1, { expiresAt: 9, rolledTo: 't' }) },
      { op: 'putSecret', secret: secret('t', 2) },
      { op: 'expectSecret', id: 't', rolledTo: null, expiresAt: null },
      { op: 'setKey', bucket: 'b', key: 'k', value: 1 },
    ])
    expect(await store().getSecret('s')).toEqual(secret('s', 1, { expiresAt: 9, rolledTo: 't' }))
    expect(await store().getKey('b', 'k')).toBe(1)
  })

  const failing = [
    ['rolledTo differs', { id: 's', rolledTo: 'x', expiresAt: 5 }],
    ['expiresAt differs', { id: 's', rolledTo: null, expiresAt: null }],
    ['the secret is missing', { id: 'nope', rolledTo: null, expiresAt: null }],
  ] as const
  it.each(failing)('fails a commit with StoreConflictError when %s', async (_, expected) => {
    await store().commit([{ op: 'putSecret', secret: secret('s', 1, { expiresAt: 5 }) }])
    const commit = store().commit([
      { op: 'setKey', bucket: 'b', key: 'k', value: 1 },
      { op: 'putSecret', secret: secret('s', 1, { rolledTo: 'u' }) },
      { op: 'expectSecret', ...expected },
      { op: 'putMeta', key: 'm', value: 1 },
    ])
    await expect(commit).rejects.toBeInstanceOf(StoreConflictError)
    await expect(commit).rejects.toMatchObject({ code: 'store_conflict' })
    expect(await store().getKey('b', 'k')).toBeUndefined()
    expect(await store().getMeta('m')).toBeUndefined()
    expect(await store().getSecret('s')).toEqual(secret('s', 1, { expiresAt: 5 }))
  })

  it('lets exactly one of two racing rolls of a secret through', async () => {
    await store().commit([{ op: 'putSecret', secret: secret('s', 1) }])
    const roll = (to: string) =>
      store().commit([
        { op: 'expectSecret', id: 's', rolledTo: null, expiresAt: null },
        { op: 'putSecret', secret: secret('s', 1, { rolledTo: to, expiresAt: 10 }) },
        { op: 'putSecret', secret: secret(to, 2) },
      ])
    const results = await Promise.allSettled([roll('t1'), roll('t2')])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected'])
    expect((await store().getSecret('s'))?.rolledTo).toBe('t1')
    expect(await store().getSecret('t2')).toBeUndefined()
  })

  it('puts, gets, lists by name, replaces and deletes procedures', async () => {
    expect(await store().getProc('a')).toBeUndefined()
    await store().commit(
      ['b', 'a', 'C', 'a/b'].map((name) => ({ op: 'putProc', proc: proc(name) })),
    )
    expect((await store().listProcs()).map((p) => p.name)).toEqual(['C', 'a', 'a/b', 'b'])
    const replaced = { ...proc('a', [1, 'two']), updatedAt: 7 }
    await store().commit([{ op: 'putProc', proc: replaced }])
    expect(await store().getProc('a')).toEqual(replaced)
    await store().commit([
      { op: 'deleteProc', name: 'b' },
      { op: 'deleteProc', name: 'never-there' },
    ])
    expect(await store().getProc('b')).toBeUndefined()
    expect((await store().listProcs()).map((p) => p.name)).toEqual(['C', 'a', 'a/b'])
  })

  it('hands out copies of meta, secrets and procedures', async () => {
    const value: { list: Json[] } = { list: [1] }
    const s = secret('s', 1)
    const p = proc('p', { list: [1] })
    await store().commit([
      { op: 'putMeta', key: 'm', value },
      { op: 'putSecret', secret: s },
      { op: 'putProc', proc: p },
    ])
    value.list.push(2)
    s.key = 'changed'
    p.updatedAt = 100
    const meta = (await store().getMeta('m')) as { list: Json[] }
    meta.list.push(3)
    const got = await store().getSecret('s')
    if (got) got.key = 'changed again'
    const [listed] = await store().listProcs()
    if (listed) listed.name = 'renamed'
    expect(await store().getMeta('m')).toEqual({ list: [1] })
    expect(await store().getSecret('s')).toEqual(secret('s', 1))
    expect(await store().getProc('p')).toEqual(proc('p', { list: [1] }))
    expect(await store().listSecrets()).toEqual([secret('s', 1)])
  })
}
