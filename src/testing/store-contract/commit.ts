import { expect, it } from 'vitest'
import type { Json, Mutation, StoreSnapshot } from '../../engine/store'
import { StoreConflictError } from '../../engine/store'
import type { ContractContext } from './fixtures'
import { fill, proc, secret, setKeys } from './fixtures'

const empty: StoreSnapshot = { meta: {}, secrets: [], keyv: [], procs: [] }

const conflict: Mutation = { op: 'expectSecret', id: 'missing', rolledTo: null, expiresAt: null }

/** A mutation no store knows. */
const bogus = { op: 'bogus' } as unknown as Mutation

/** A value no store can copy. */
const uncloneable = (() => 1) as unknown as Json

/** `clear`, `restore`, `snapshot`, atomicity, concurrency and `close`. */
export function commitContract({ store, makeStore }: ContractContext): void {
  it('snapshots everything in a fixed order: secrets oldest first, keys and procs sorted', async () => {
    expect(await store().snapshot()).toEqual(empty)
    await fill(store())
    expect(await store().snapshot()).toStrictEqual({
      meta: { version: 3, owner: { name: 'Zoë', tags: ['a', null] } },
      secrets: [secret('s1', 10, { expiresAt: 99, rolledTo: 's2' }), secret('s2', 20)],
      keyv: [
        { bucket: 'a', key: 'z', value: 'z' },
        { bucket: 'b', key: 'x', value: 'x' },
        { bucket: 'b', key: 'y', value: 'y' },
      ],
      procs: [proc('p1'), proc('p2')],
    })
  })

  it('hands out snapshots that are copies', async () => {
    await fill(store())
    const before = await store().snapshot()
    const changed = await store().snapshot()
    changed.meta['version'] = 4
    changed.keyv.pop()
    const [first] = changed.secrets
    if (first) first.rolledTo = 'changed'
    expect(await store().snapshot()).toEqual(before)
  })

  it('clears everything, and keeps what the same commit writes after the clear', async () => {
    await fill(store())
    await store().commit([{ op: 'clear' }])
    expect(await store().snapshot()).toEqual(empty)
    expect(await store().getMeta('version')).toBeUndefined()
    expect(await store().listSecrets()).toEqual([])
    expect(await store().scanKeys('b', { prefix: '', limit: 10 })).toEqual([])
    expect(await store().listProcs()).toEqual([])
    await fill(store())
    await store().commit([{ op: 'clear' }, ...setKeys('b', ['kept'])])
    expect(await store().snapshot()).toEqual({
      ...empty,
      keyv: [{ bucket: 'b', key: 'kept', value: 'kept' }],
    })
  })

  it('restore replaces everything with the snapshot', async () => {
    await fill(store())
    const replacement: StoreSnapshot = {
      meta: { other: [1, { two: null }] },
      secrets: [secret('r', 5)],
      keyv: [{ bucket: 'c', key: 'k', value: { deep: ['v'] } }],
      procs: [proc('q', null)],
    }
    await store().commit([{ op: 'restore', snapshot: replacement }])
    expect(await store().snapshot()).toStrictEqual(replacement)
    expect(await store().getKey('b', 'x')).toBeUndefined()
    expect(await store().getKey('c', 'k')).toEqual({ deep: ['v'] })
  })

  it('restores a snapshot into a fresh store exactly', async () => {
    await fill(store())
    await store().commit([
      ...setKeys('b', ['', '\uffff', 'é']),
      { op: 'putMeta', key: '', value: '' },
    ])
    const snapshot = await store().snapshot()
    const fresh = await makeStore()
    await fresh.commit([{ op: 'restore', snapshot }])
    expect(await fresh.snapshot()).toStrictEqual(snapshot)
    expect(await fresh.scanKeys('b', { prefix: '', limit: 10 })).toEqual([
      '',
      'x',
      'y',
      'é',
      '\uffff',
    ])
  })

  const failures: [string, Mutation[]][] = [
    ['an unknown mutation', [bogus]],
    [
      'a value that cannot be stored',
      [{ op: 'setKey', bucket: 'b', key: 'f', value: uncloneable }],
    ],
    ['a conflict', [conflict]],
    ['a conflict after a clear', [{ op: 'clear' }, ...setKeys('b', ['new']), conflict]],
    ['a conflict after a restore', [{ op: 'restore', snapshot: empty }, conflict]],
  ]
  it.each(failures)('writes nothing when a commit fails on %s', async (_, tail) => {
    await fill(store())
    const before = await store().snapshot()
    const commit = store().commit([
      { op: 'putMeta', key: 'version', value: 4 },
      { op: 'initMeta', key: 'fresh', value: 1 },
      { op: 'putSecret', secret: secret('s3', 30) },
      { op: 'putSecret', secret: secret('s1', 10) },
      { op: 'setKey', bucket: 'b', key: 'x', value: 'changed' },
      { op: 'setKey', bucket: 'b', key: 'added', value: 1 },
      { op: 'deleteKey', bucket: 'b', key: 'y' },
      { op: 'putProc', proc: proc('p3') },
      { op: 'deleteProc', name: 'p1' },
      ...tail,
    ])
    await expect(commit).rejects.toThrow()
    expect(await store().snapshot()).toStrictEqual(before)
    expect(await store().getKey('b', 'added')).toBeUndefined()
    expect(await store().scanKeys('b', { prefix: '', limit: 10 })).toEqual(['x', 'y'])
  })

  it('reports a failed precondition as StoreConflictError even after other writes', async () => {
    await expect(store().commit([...setKeys('b', ['k']), conflict])).rejects.toBeInstanceOf(
      StoreConflictError,
    )
  })

  it('accepts an empty commit', async () => {
    await store().commit([])
    expect(await store().snapshot()).toEqual(empty)
  })

  it('lands every one of 200 concurrent commits', async () => {
    const keys = Array.from({ length: 200 }, (_, i) => `key-${String(i).padStart(3, '0')}`)
    await Promise.all(keys.map((key) => store().commit(setKeys('c', [key]))))
    expect(await store().scanKeys('c', { prefix: '', limit: 1000 })).toEqual(keys)
    expect(await store().getKey('c', 'key-123')).toBe('key-123')
  })

  it('applies concurrent commits in call order', async () => {
    const inits = Array.from({ length: 50 }, (_, i) =>
      store().commit([{ op: 'initMeta', key: 'first', value: i }]),
    )
    const puts = [1, 2, 3].map((value) => store().commit([{ op: 'putMeta', key: 'last', value }]))
    await Promise.all([...inits, ...puts])
    expect(await store().getMeta('first')).toBe(0)
    expect(await store().getMeta('last')).toBe(3)
  })

  it('rejects every call once closed, and closes twice without complaint', async () => {
    const closing = await makeStore()
    await closing.close()
    await closing.close()
    await expect(closing.getMeta('k')).rejects.toThrow()
    await expect(closing.scanKeys('b', { prefix: '', limit: 1 })).rejects.toThrow()
    await expect(closing.commit(setKeys('b', ['k']))).rejects.toThrow()
    await expect(closing.snapshot()).rejects.toThrow()
  })
}
