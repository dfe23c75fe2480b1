import { StoreClosedError } from '../engine/errors'
import { yieldWhenDue } from '../engine/runtime/turns'
import type {
  Json,
  KeyvEntry,
  Mutation,
  ProcRecord,
  ScanOptions,
  SecretRecord,
  Store,
  StoreSnapshot,
} from '../engine/store'
import { copyJson as copy, copySecret } from './copy'
import { compareSecrets, compareStrings, scanLimit } from './key-order'
import { checkExpectedSecret } from './preconditions'
import { insertKey, lowerBound, removeKey, upperBound } from './sorted-keys'

/** A bucket's values, with its keys kept sorted so scans are a binary search and a slice. */
interface Bucket {
  values: Map<string, Json>
  keys: string[]
}

interface State {
  meta: Map<string, Json>
  secrets: Map<string, SecretRecord>
  buckets: Map<string, Bucket>
  procs: Map<string, ProcRecord>
}

/** A stored value, or `undefined` for none (a value may itself be `null`). */
type Slot<V> = { value: V } | undefined

/** Puts back what one applied mutation changed. */
type Undo = () => void

function emptyState(): State {
  return { meta: new Map(), secrets: new Map(), buckets: new Map(), procs: new Map() }
}

/** Writes or (with `undefined`) removes one entry; returns what was there. */
function writeSlot<V>(map: Map<string, V>, key: string, slot: Slot<V>): Slot<V> {
  const previous: Slot<V> = map.has(key) ? { value: map.get(key) as V } : undefined
  if (slot) map.set(key, slot.value)
  else map.delete(key)
  return previous
}

/** Like `writeSlot` for one key of a bucket, keeping the sorted keys and dropping empty buckets. */
function writeKey(state: State, name: string, key: string, slot: Slot<Json>): Slot<Json> {
  let bucket = state.buckets.get(name)
  const previous: Slot<Json> = bucket?.values.has(key)
    ? { value: bucket.values.get(key) as Json }
    : undefined
  if (slot) {
    if (!bucket) {
      bucket = { values: new Map(), keys: [] }
      state.buckets.set(name, bucket)
    }
    if (!previous) insertKey(bucket.keys, key)
    bucket.values.set(key, slot.value)
  } else if (bucket && previous) {
    bucket.values.delete(key)
    removeKey(bucket.keys, key)
    if (bucket.keys.length === 0) state.buckets.delete(name)
  }
  return previous
}

function stateFromSnapshot(snapshot: StoreSnapshot): State {
  const copy = structuredClone(snapshot)
  const state = emptyState()
  for (const [key, value] of Object.entries(copy.meta)) state.meta.set(key, value)
  for (const secret of copy.secrets) state.secrets.set(secret.id, secret)
  // Each bucket's keys sorted once: inserting them one by one in order is quadratic.
  for (const { bucket: name, key, value } of copy.keyv) {
    let bucket = state.buckets.get(name)
    if (!bucket) state.buckets.set(name, (bucket = { values: new Map(), keys: [] }))
    if (!bucket.values.has(key)) bucket.keys.push(key)
    bucket.values.set(key, value)
  }
  for (const bucket of state.buckets.values()) bucket.keys.sort()
  for (const proc of copy.procs) state.procs.set(proc.name, proc)
  return state
}

/**
 * A copy of the state as it is now. What the store holds is never changed in place (a write
 * replaces a value with a copy of its own), so the values are taken at once and copied a few
 * hundred at a time after, the event loop given a turn between them when the copying has run a
 * slice: a 60 MB account is not one step of it.
 */
async function snapshotOf(state: State): Promise<StoreSnapshot> {
  const keyv: KeyvEntry[] = []
  const buckets = [...state.buckets].sort(([a], [b]) => compareStrings(a, b))
  for (const [bucket, { keys, values }] of buckets) {
    for (const key of keys) keyv.push({ bucket, key, value: values.get(key) as Json })
  }
  const snapshot = structuredClone({
    meta: Object.fromEntries(state.meta),
    secrets: [...state.secrets.values()].sort(compareSecrets),
    keyv: [] as KeyvEntry[],
    procs: [...state.procs.values()].sort((a, b) => compareStrings(a.name, b.name)),
  })
  for (let at = 0; at < keyv.length; at += SNAPSHOT_PIECE) {
    const turn = yieldWhenDue(SNAPSHOT_SLICE_MS)
    if (turn) await turn
    for (const entry of keyv.slice(at, at + SNAPSHOT_PIECE)) {
      snapshot.keyv.push({ ...entry, value: copy(entry.value) as Json })
    }
  }
  return snapshot
}

/** Keys copied between two looks at the clock while a snapshot is taken. */
const SNAPSHOT_PIECE = 256
/** Copying a snapshot gives the event loop a turn once it has run this long without one. */
const SNAPSHOT_SLICE_MS = 10

function scan(bucket: Bucket | undefined, { prefix, after, limit }: ScanOptions): string[] {
  const keys = bucket?.keys ?? []
  const count = scanLimit(limit)
  let at =
    after !== undefined && after >= prefix ? upperBound(keys, after) : lowerBound(keys, prefix)
  const found: string[] = []
  for (; at < keys.length && found.length < count; at++) {
    const key = keys[at] as string
    if (!key.startsWith(prefix)) break
    found.push(key)
  }
  return found
}

/**
 * A `Store` held entirely in memory. Values are copied in and out (deep, for objects), and `commit` applies
 * its mutations in place while logging how to undo each one, so a failure rolls back cheaply.
 */
export function createMemoryStore(): Store {
  let state = emptyState()
  let closed = false

  function live(): State {
    if (closed) throw new StoreClosedError()
    return state
  }

  function apply(mutation: Mutation, undo: Undo[]): void {
    const s = state
    switch (mutation.op) {
      case 'initMeta':
      case 'putMeta': {
        const { key } = mutation
        if (mutation.op === 'initMeta' && s.meta.has(key)) return
        const previous = writeSlot(s.meta, key, { value: copy(mutation.value) })
        undo.push(() => writeSlot(s.meta, key, previous))
        return
      }
      case 'putSecret': {
        const secret = copySecret(mutation.secret)!
        const previous = writeSlot(s.secrets, secret.id, { value: secret })
        undo.push(() => writeSlot(s.secrets, secret.id, previous))
        return
      }
      case 'expectSecret':
        checkExpectedSecret(s.secrets.get(mutation.id), mutation)
        return
      case 'setKey':
      case 'deleteKey': {
        const { bucket, key } = mutation
        const slot = mutation.op === 'setKey' ? { value: copy(mutation.value) } : undefined
        const previous = writeKey(s, bucket, key, slot)
        undo.push(() => writeKey(s, bucket, key, previous))
        return
      }
      case 'putProc': {
        const proc = structuredClone(mutation.proc)
        const previous = writeSlot(s.procs, proc.name, { value: proc })
        undo.push(() => writeSlot(s.procs, proc.name, previous))
        return
      }
      case 'deleteProc': {
        const { name } = mutation
        const previous = writeSlot(s.procs, name, undefined)
        undo.push(() => writeSlot(s.procs, name, previous))
        return
      }
      case 'clear':
      case 'restore':
        state = mutation.op === 'clear' ? emptyState() : stateFromSnapshot(mutation.snapshot)
        undo.push(() => (state = s))
        return
      default:
        throw new TypeError(`Unknown mutation: ${String((mutation as { op?: unknown }).op)}`)
    }
  }

  function commit(mutations: readonly Mutation[]): void {
    live()
    const undo: Undo[] = []
    try {
      for (const mutation of mutations) apply(mutation, undo)
    } catch (error) {
      for (let i = undo.length - 1; i >= 0; i--) undo[i]?.()
      throw error
    }
  }

  return {
    getMeta: async (key) => copy(live().meta.get(key)),
    getSecret: async (id) => copySecret(live().secrets.get(id)),
    listSecrets: async () =>
      [...live().secrets.values()].sort(compareSecrets).map((secret) => ({ ...secret })),
    getKey: async (bucket, key) => copy(live().buckets.get(bucket)?.values.get(key)),
    scanKeys: async (bucket, options) => scan(live().buckets.get(bucket), options),
    listBuckets: async () =>
      [...live().buckets]
        .map(([bucket, { keys }]) => ({ bucket, keys: keys.length }))
        .sort((a, b) => compareStrings(a.bucket, b.bucket)),
    getProc: async (name) => structuredClone(live().procs.get(name)),
    listProcs: async () =>
      structuredClone([...live().procs.values()].sort((a, b) => compareStrings(a.name, b.name))),
    async commit(mutations) {
      commit(mutations)
    },
    snapshot: async () => snapshotOf(live()),
    async close() {
      closed = true
    },
  }
}
