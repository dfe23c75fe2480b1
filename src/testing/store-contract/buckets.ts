import { expect, it } from 'vitest'
import type { ContractContext } from './fixtures'
import { fill, setKeys } from './fixtures'

/** `listBuckets`: every bucket with its count of keys, following every kind of write. */
export function bucketContract({ store }: ContractContext): void {
  it('lists no bucket in an empty store', async () => {
    expect(await store().listBuckets()).toEqual([])
  })

  it('counts each bucket, in code-unit order, whatever their names share', async () => {
    // Enough buckets before the awkward ones that a store may count those differently.
    const fillers = Array.from({ length: 30 }, (_, i) => `c${String(i).padStart(2, '0')}`)
    await store().commit([
      ...fillers.flatMap((bucket) => setKeys(bucket, ['k'])),
      ...setKeys('ab', ['x']),
      ...setKeys('a', ['x', 'y', 'z']),
      ...setKeys('', ['k']),
      ...setKeys('a\u0000', ['k', 'l']),
      ...setKeys('\uffff', ['k']),
      ...setKeys('\ud83d\ude00', ['k']),
      ...setKeys('é', ['k']),
      ...setKeys('B', ['k']),
    ])
    expect(await store().listBuckets()).toEqual([
      { bucket: '', keys: 1 },
      { bucket: 'B', keys: 1 },
      { bucket: 'a', keys: 3 },
      { bucket: 'a\u0000', keys: 2 },
      { bucket: 'ab', keys: 1 },
      ...fillers.map((bucket) => ({ bucket, keys: 1 })),
      { bucket: 'é', keys: 1 },
      { bucket: '\ud83d\ude00', keys: 1 },
      { bucket: '\uffff', keys: 1 },
    ])
  })

  it('follows overwrites, deletes, clear and restore; an emptied bucket is gone', async () => {
    await store().commit(setKeys('a', ['x', 'y']))
    await store().commit([
      { op: 'setKey', bucket: 'a', key: 'x', value: 'again' },
      { op: 'deleteKey', bucket: 'a', key: 'never-there' },
      { op: 'setKey', bucket: 'b', key: 'x', value: 1 },
    ])
    expect(await store().listBuckets()).toEqual([
      { bucket: 'a', keys: 2 },
      { bucket: 'b', keys: 1 },
    ])
    await store().commit([
      { op: 'deleteKey', bucket: 'b', key: 'x' },
      { op: 'deleteKey', bucket: 'a', key: 'y' },
    ])
    expect(await store().listBuckets()).toEqual([{ bucket: 'a', keys: 1 }])
    await store().commit([{ op: 'clear' }])
    expect(await store().listBuckets()).toEqual([])
    const other = await fill(store()).then(() => store().snapshot())
    await store().commit([{ op: 'clear' }, { op: 'restore', snapshot: other }])
    expect(await store().listBuckets()).toEqual([
      { bucket: 'a', keys: 1 },
      { bucket: 'b', keys: 2 },
    ])
  })

  // How the time grows with the buckets is measured by `npm run bench -- store`.
  it.each([
    [4, 2500],
    [256, 39],
  ])('counts %i buckets of %i keys each', async (count, size) => {
    const keys = Array.from({ length: size }, (_, i) => `k/${String(i).padStart(4, '0')}`)
    const buckets = Array.from({ length: count }, (_, i) => `b${String(i).padStart(3, '0')}`)
    await store().commit(buckets.flatMap((bucket) => setKeys(bucket, keys)))
    expect(await store().listBuckets()).toEqual(buckets.map((bucket) => ({ bucket, keys: size })))
  })
}
