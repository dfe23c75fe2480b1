import type { Json, Mutation, ProcRecord, SecretRecord, StoreReader, StoreSnapshot } from '../store'

/**
 * What one commit changed, as the history keeps it (decision 086): for each meta entry,
 * secret, key or procedure it touched, what it held before (the undo record's before-image)
 * and after. A commit that replaced everything (a reset's `clear`, an import's or a restore's
 * `restore`) keeps the whole store as it was before, and its mutations as they were committed.
 */
export type CommitRecord =
  | { kind: 'changes'; changes: SlotChange[]; bytes: number }
  | { kind: 'whole'; before: StoreSnapshot; mutations: readonly Mutation[]; bytes: number }

type Held = Json | SecretRecord | ProcRecord

/** One place of the store and what it held before and after a commit (`undefined`: nothing). */
export interface SlotChange {
  slot: Slot
  /** The slot as a map key (`slotId`), made once. */
  id: string
  before: Held | undefined
  after: Held | undefined
}

export type Slot =
  | { kind: 'meta'; key: string }
  | { kind: 'secret'; id: string }
  | { kind: 'key'; bucket: string; key: string }
  | { kind: 'proc'; name: string }

/** A slot as a map key: the same place gives the same text. */
export const slotId = (slot: Slot): string =>
  slot.kind === 'key'
    ? `k\u0000${slot.bucket}\u0000${slot.key}`
    : slot.kind === 'meta'
      ? `m\u0000${slot.key}`
      : slot.kind === 'secret'
        ? `s\u0000${slot.id}`
        : `p\u0000${slot.name}`

function slotOf(mutation: Mutation): Slot | undefined {
  switch (mutation.op) {
    case 'putMeta':
    case 'initMeta':
    case 'deleteMeta':
      return { kind: 'meta', key: mutation.key }
    case 'putSecret':
      return { kind: 'secret', id: mutation.secret.id }
    case 'deleteSecret':
      return { kind: 'secret', id: mutation.id }
    case 'setKey':
    case 'deleteKey':
      return { kind: 'key', bucket: mutation.bucket, key: mutation.key }
    case 'putProc':
      return { kind: 'proc', name: mutation.proc.name }
    case 'deleteProc':
      return { kind: 'proc', name: mutation.name }
    default:
      return undefined
  }
}

function read(reader: StoreReader, slot: Slot): Promise<Held | undefined> {
  switch (slot.kind) {
    case 'meta':
      return reader.getMeta(slot.key)
    case 'secret':
      return reader.getSecret(slot.id)
    case 'key':
      return reader.getKey(slot.bucket, slot.key)
    case 'proc':
      return reader.getProc(slot.name)
  }
}

/** What `mutation` leaves in its slot, given what the slot held. */
function afterOf(mutation: Mutation, held: Held | undefined): Held | undefined {
  switch (mutation.op) {
    case 'putMeta':
    case 'setKey':
      return mutation.value
    case 'initMeta':
      return held === undefined ? mutation.value : held
    case 'putSecret':
      return mutation.secret
    case 'putProc':
      return mutation.proc
    default:
      return undefined
  }
}

/** About what a held value takes as JSON, counted without writing it out for the common kinds. */
function sizeOf(value: Held | undefined): number {
  if (value === undefined || value === null) return 4
  if (typeof value === 'string') return value.length + 2
  if (typeof value === 'number' || typeof value === 'boolean') return 8
  return JSON.stringify(value).length
}

/** What one slot change takes: its place, its two values and the record around them. */
const changeSize = ({ id, before, after }: SlotChange) =>
  32 + id.length + sizeOf(before) + sizeOf(after)

/** Whether a commit replaces the whole store. */
const isWhole = (mutations: readonly Mutation[]) =>
  mutations.some((m) => m.op === 'clear' || m.op === 'restore')

/**
 * What committing `mutations` over the store `reader` reads changes: read through `reader` in
 * the same atomic step as the commit (inside `Store.update`'s plan), so that the before-images
 * are exactly what the commit replaced. Reads each slot once, whatever number of mutations
 * touch it.
 */
export async function recordCommit(
  reader: StoreReader,
  mutations: readonly Mutation[],
): Promise<CommitRecord> {
  if (isWhole(mutations)) {
    const before = await reader.snapshot()
    return { kind: 'whole', before, mutations, bytes: snapshotSize(before) + 64 }
  }
  const touched = new Map<string, SlotChange>()
  for (const mutation of mutations) {
    const slot = slotOf(mutation)
    if (!slot) continue
    const id = slotId(slot)
    let change = touched.get(id)
    if (!change) {
      const before = await read(reader, slot)
      change = { slot, id, before, after: before }
      touched.set(id, change)
    }
    change.after = afterOf(mutation, change.after)
  }
  const changes = [...touched.values()]
  let bytes = 64
  for (const change of changes) bytes += changeSize(change)
  return { kind: 'changes', changes, bytes }
}

/** About what a whole snapshot takes as JSON. */
export function snapshotSize(snapshot: StoreSnapshot): number {
  let size = JSON.stringify(snapshot.meta).length + JSON.stringify(snapshot.secrets).length
  for (const { bucket, key, value } of snapshot.keyv) {
    size += 24 + bucket.length + key.length + sizeOf(value)
  }
  for (const proc of snapshot.procs) size += JSON.stringify(proc).length
  return size
}

/** The mutation that puts `value` (or nothing) back in `slot`. */
function put(slot: Slot, value: Held | undefined): Mutation {
  switch (slot.kind) {
    case 'meta':
      return value === undefined
        ? { op: 'deleteMeta', key: slot.key }
        : { op: 'putMeta', key: slot.key, value: value as Json }
    case 'secret':
      return value === undefined
        ? { op: 'deleteSecret', id: slot.id }
        : { op: 'putSecret', secret: value as SecretRecord }
    case 'key':
      return value === undefined
        ? { op: 'deleteKey', bucket: slot.bucket, key: slot.key }
        : { op: 'setKey', bucket: slot.bucket, key: slot.key, value: value as Json }
    case 'proc':
      return value === undefined
        ? { op: 'deleteProc', name: slot.name }
        : { op: 'putProc', proc: value as ProcRecord }
  }
}

/**
 * The mutations that take the store from after the last of `commits` back to before the first:
 * each slot's earliest before-image, once; from the whole store before the earliest commit that
 * replaced everything, when one did. As many mutations as slots touched (or the store's size,
 * past a commit that replaced it): never the account's size otherwise. `commits` is a list of
 * lists (each step's), read from the last back, copying none of them.
 */
export function undoOf(commits: ReadonlyArray<readonly CommitRecord[]>): Mutation[] {
  const earliest = new Map<string, SlotChange>()
  let whole: StoreSnapshot | undefined
  for (let i = commits.length - 1; i >= 0; i--) {
    const step = commits[i]!
    for (let j = step.length - 1; j >= 0; j--) {
      const commit = step[j]!
      if (commit.kind === 'whole') {
        // Everything from it on is replaced by what the store held before it.
        whole = commit.before
        earliest.clear()
        continue
      }
      for (const change of commit.changes) earliest.set(change.id, change)
    }
  }
  const undone: Mutation[] = whole ? [{ op: 'restore', snapshot: whole }] : []
  for (const { slot, before } of earliest.values()) undone.push(put(slot, before))
  return undone
}

/**
 * The mutations that take the store from before the first of `commits` to after the last: each
 * slot's latest after-image, once; from the latest commit that replaced everything, when one did.
 */
export function redoOf(commits: ReadonlyArray<readonly CommitRecord[]>): Mutation[] {
  const flat = commits.flat()
  let start = 0
  const mutations: Mutation[] = []
  for (let i = flat.length - 1; i >= 0; i--) {
    const commit = flat[i]!
    if (commit.kind === 'whole') {
      mutations.push(...commit.mutations.filter((m) => m.op !== 'expectSecret'))
      start = i + 1
      break
    }
  }
  const latest = new Map<string, SlotChange>()
  for (const commit of flat.slice(start)) {
    if (commit.kind === 'changes') {
      for (const change of commit.changes) latest.set(change.id, change)
    }
  }
  for (const { slot, after } of latest.values()) mutations.push(put(slot, after))
  return mutations
}

/**
 * `snapshot` with `mutations` applied, as a store would apply them (preconditions aside): what
 * the account held at another point of its history, worked out without moving it there.
 */
export function applyTo(snapshot: StoreSnapshot, mutations: readonly Mutation[]): StoreSnapshot {
  let meta = new Map(Object.entries(snapshot.meta))
  let secrets = new Map(snapshot.secrets.map((secret) => [secret.id, secret]))
  let keyv = new Map(snapshot.keyv.map((entry) => [`${entry.bucket}\u0000${entry.key}`, entry]))
  let procs = new Map(snapshot.procs.map((proc) => [proc.name, proc]))
  for (const mutation of mutations) {
    switch (mutation.op) {
      case 'putMeta':
        meta.set(mutation.key, mutation.value)
        break
      case 'initMeta':
        if (!meta.has(mutation.key)) meta.set(mutation.key, mutation.value)
        break
      case 'deleteMeta':
        meta.delete(mutation.key)
        break
      case 'putSecret':
        secrets.set(mutation.secret.id, mutation.secret)
        break
      case 'deleteSecret':
        secrets.delete(mutation.id)
        break
      case 'setKey': {
        const { bucket, key, value } = mutation
        keyv.set(`${bucket}\u0000${key}`, { bucket, key, value })
        break
      }
      case 'deleteKey':
        keyv.delete(`${mutation.bucket}\u0000${mutation.key}`)
        break
      case 'putProc':
        procs.set(mutation.proc.name, mutation.proc)
        break
      case 'deleteProc':
        procs.delete(mutation.name)
        break
      case 'clear':
      case 'restore': {
        const from = mutation.op === 'restore' ? mutation.snapshot : undefined
        meta = new Map(Object.entries(from?.meta ?? {}))
        secrets = new Map((from?.secrets ?? []).map((secret) => [secret.id, secret]))
        keyv = new Map((from?.keyv ?? []).map((e) => [`${e.bucket}\u0000${e.key}`, e]))
        procs = new Map((from?.procs ?? []).map((proc) => [proc.name, proc]))
        break
      }
    }
  }
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  return {
    meta: Object.fromEntries(meta),
    secrets: [...secrets.values()].sort((a, b) => a.createdAt - b.createdAt || order(a.id, b.id)),
    keyv: [...keyv.values()].sort((a, b) => order(a.bucket, b.bucket) || order(a.key, b.key)),
    procs: [...procs.values()].sort((a, b) => order(a.name, b.name)),
  }
}
