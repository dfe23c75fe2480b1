import { expect, it } from 'vitest'
import type { Mutation, StoreReader } from '../../engine/store'
import type { ContractContext } from './fixtures'
import { fill, proc } from './fixtures'

/** `update`, for the stores that offer it: a read, then a commit, with nothing in between. */
export function updateContract({ store }: ContractContext): void {
  const update = (plan: (reader: StoreReader) => Promise<readonly Mutation[]>) => {
    const own = store().update
    if (!own) throw new Error('this store has no update')
    return own.call(store(), plan)
  }

  it('commits what the plan returns, from what it read', async () => {
    await fill(store())
    const seen: unknown[] = []
    await update(async (reader) => {
      seen.push(
        await reader.getKey('b', 'x'),
        await reader.getKey('b', 'none'),
        await reader.getProc('p1'),
        await reader.getMeta('version'),
        (await reader.getSecret('s1'))?.rolledTo,
        await reader.getSecret('none'),
        (await reader.snapshot()).keyv.length,
        await reader.scanKeys('b', { prefix: '', limit: 10 }),
        await reader.scanKeys('b', { prefix: '', after: 'x', limit: 1 }),
      )
      return [
        { op: 'setKey', bucket: 'b', key: 'x', value: 'changed' },
        { op: 'putMeta', key: 'version', value: 4 },
      ]
    })
    expect(seen).toEqual(['x', undefined, proc('p1'), 3, 's2', undefined, 3, ['x', 'y'], ['y']])
    expect(await store().getKey('b', 'x')).toBe('changed')
    expect(await store().getMeta('version')).toBe(4)
  })

  it('writes nothing when the plan throws, nor when a mutation fails', async () => {
    await fill(store())
    const before = await store().snapshot()
    const refused = new Error('over quota')
    await expect(
      update(async (reader) => {
        await reader.getMeta('version')
        throw refused
      }),
    ).rejects.toBe(refused)
    const conflict: Mutation = {
      op: 'expectSecret',
      id: 'missing',
      rolledTo: null,
      expiresAt: null,
    }
    await expect(
      update(async () => [{ op: 'setKey', bucket: 'b', key: 'x', value: 'changed' }, conflict]),
    ).rejects.toThrow()
    expect(await store().snapshot()).toEqual(before)
  })

  it('lets no other update or commit come between what it reads and what it writes', async () => {
    await store().commit([{ op: 'putMeta', key: 'count', value: 0 }])
    const add = () =>
      update(async (reader) => [
        { op: 'putMeta', key: 'count', value: ((await reader.getMeta('count')) as number) + 1 },
      ])
    const writes = Array.from({ length: 10 }, (_, i) =>
      store().commit([{ op: 'setKey', bucket: 'b', key: `k${i}`, value: i }]),
    )
    await Promise.all([...Array.from({ length: 20 }, add), ...writes])
    expect(await store().getMeta('count')).toBe(20)
    expect((await store().scanKeys('b', { prefix: '', limit: 100 })).length).toBe(10)
  })
}
