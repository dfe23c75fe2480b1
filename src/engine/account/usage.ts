import { ForbiddenError } from '../errors'
import { measure } from '../runtime/size'
import type { Json, Mutation, StoreReader, StoreSnapshot } from '../store'

/**
 * What the account stores, in bytes (keys, values and stored procedures, measured roughly as
 * JSON), kept in `meta.usage` and updated in the same commit as the writes that change it.
 * A request whose writes would take the account past its quota is refused with 403; writes
 * that free space always pass. The quota keeps the whole account small enough to export as
 * a single JSON file.
 */
export const USAGE = 'usage'

const sizeOf = (value: Json) => measure(value, Number.POSITIVE_INFINITY, new WeakMap())
const keySize = (bucket: string, key: string, value: Json) =>
  bucket.length + key.length + sizeOf(value)
const procSize = (name: string, proc: Json) => name.length + sizeOf(proc)

/** The bytes a whole snapshot takes, as `meta.usage` counts them. */
export function usageOf(snapshot: Pick<StoreSnapshot, 'keyv' | 'procs'>): number {
  let total = 0
  for (const entry of snapshot.keyv) total += keySize(entry.bucket, entry.key, entry.value)
  for (const record of snapshot.procs) total += procSize(record.name, record.proc)
  return total
}

/** The mutation that records `snapshot`'s usage, for commits that replace everything. */
export const usageRecord = (snapshot: Pick<StoreSnapshot, 'keyv' | 'procs'>): Mutation => ({
  op: 'putMeta',
  key: USAGE,
  value: usageOf(snapshot),
})

/**
 * A request's writes with the account's new usage, refusing them (403) when they would take
 * it past `quota` bytes: for a plan of `update`, so that the usage and the sizes the writes
 * replace are read in the same update as the commit, and no two requests read the same usage
 * and lose each other's count, in one process or in several over one database.
 */
export async function withUsage(
  store: StoreReader,
  mutations: readonly Mutation[],
  quota: number,
): Promise<readonly Mutation[]> {
  // Sizes before and after, per key or procedure the writes touch (the last write wins).
  const before = new Map<string, number>()
  const after = new Map<string, number>()
  for (const mutation of mutations) {
    switch (mutation.op) {
      case 'setKey':
      case 'deleteKey': {
        const id = JSON.stringify(['k', mutation.bucket, mutation.key])
        if (!before.has(id)) {
          const old = await store.getKey(mutation.bucket, mutation.key)
          before.set(id, old === undefined ? 0 : keySize(mutation.bucket, mutation.key, old))
        }
        after.set(
          id,
          mutation.op === 'setKey' ? keySize(mutation.bucket, mutation.key, mutation.value) : 0,
        )
        break
      }
      case 'putProc':
      case 'deleteProc': {
        const name = mutation.op === 'putProc' ? mutation.proc.name : mutation.name
        const id = JSON.stringify(['p', name])
        if (!before.has(id)) {
          const old = await store.getProc(name)
          before.set(id, old === undefined ? 0 : procSize(name, old.proc))
        }
        after.set(id, mutation.op === 'putProc' ? procSize(name, mutation.proc.proc) : 0)
        break
      }
    }
  }
  if (after.size === 0) return mutations
  let delta = 0
  for (const [id, size] of after) delta += size - before.get(id)!
  const stored = await store.getMeta(USAGE)
  const usage =
    typeof stored === 'number' && Number.isFinite(stored) && stored >= 0
      ? stored
      : usageOf(await store.snapshot())
  if (delta > 0 && usage + delta > quota) {
    throw new ForbiddenError(
      `the account would store more than its quota of ${quota} bytes (${usage} used); delete keys or procedures to make room`,
      'quota_exceeded',
    )
  }
  return [...mutations, { op: 'putMeta', key: USAGE, value: usage + delta }]
}
