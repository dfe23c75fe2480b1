import { expect, it } from 'vitest'
import type { ContractContext } from './store-contract-fixtures'
import { fill, setKeys } from './store-contract-fixtures'

/** `listBuckets`: every bucket with its count of keys, following every kind of write. */
export function bucketContract({ store }: ContractContext): void {
  it('lists no bucket in an empty store', async () => {
    expect(await store().listBuckets()).toEqual([])
  })

  it('counts each bucket, in code-unit order, whatever their names share', async () => {
    await store().commit([
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

  it('counts 10,000 keys in 200 buckets quickly', async () => {
    const keys = Array.from({ length: 50 }, (_, i) => `k/${String(i).padStart(2, '0')}`)
    const buckets = Array.from({ length: 200 }, (_, i) => `b${String(i).padStart(3, '0')}`)
    await store().commit(buckets.flatMap((bucket) => setKeys(bucket, keys)))
    const started = performance.now()
    const listed = await store().listBuckets()
    const elapsed = performance.now() - started
    console.info(`listed 200 buckets of 10,000 keys in ${elapsed.toFixed(1)} ms`)
    expect(listed).toEqual(buckets.map((bucket) => ({ bucket, keys: 50 })))
    expect(elapsed).toBeLessThan(500)
  })
}
