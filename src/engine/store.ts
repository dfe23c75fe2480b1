/**
 * The storage the engine is given. It never imports an implementation: `src/storage/`
 * provides them — in memory, over IndexedDB, and (`src/storage/sql/`) over SQLite and
 * PostgreSQL — and every one passes the same contract suite (`src/testing/store-contract/`).
 *
 * Reads are single operations; every write goes through `commit`, which applies its
 * mutations atomically (all or nothing) after checking their preconditions.
 */

/** A JSON value as stored: what `JSON.parse` can return. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** Times are Unix seconds (fractional allowed), on the engine's virtual clock. */
export interface SecretRecord {
  id: string
  key: string
  createdAt: number
  /** When the secret dies; `null` while it lives with no roll scheduled. */
  expiresAt: number | null
  /** The secret that replaced this one when it was rolled. */
  rolledTo: string | null
}

export interface KeyvEntry {
  bucket: string
  key: string
  value: Json
}

export interface ProcRecord {
  name: string
  proc: Json
  createdAt: number
  updatedAt: number
}

/** The whole account, as export and import carry it. */
export interface StoreSnapshot {
  meta: Record<string, Json>
  secrets: SecretRecord[]
  keyv: KeyvEntry[]
  procs: ProcRecord[]
}

export type Mutation =
  | { op: 'putMeta'; key: string; value: Json }
  /** Writes only when the key holds nothing yet; never an error. */
  | { op: 'initMeta'; key: string; value: Json }
  /** Removes one meta entry; nothing when there is none (what undoing a first `putMeta` needs). */
  | { op: 'deleteMeta'; key: string }
  | { op: 'putSecret'; secret: SecretRecord }
  /** Removes one secret; nothing when there is none (what undoing a secret's creation needs). */
  | { op: 'deleteSecret'; id: string }
  /** A precondition: the commit fails with `StoreConflictError` unless it holds. */
  | { op: 'expectSecret'; id: string; rolledTo: string | null; expiresAt: number | null }
  | { op: 'setKey'; bucket: string; key: string; value: Json }
  | { op: 'deleteKey'; bucket: string; key: string }
  | { op: 'putProc'; proc: ProcRecord }
  | { op: 'deleteProc'; name: string }
  /** Removes everything: meta, secrets, keys and procedures. */
  | { op: 'clear' }
  /** Replaces everything with the snapshot's contents. */
  | { op: 'restore'; snapshot: StoreSnapshot }

export interface BucketCount {
  bucket: string
  keys: number
}

export interface ScanOptions {
  /** Only keys that start with this text. */
  prefix: string
  /** Only keys strictly after this one (the previous page's last key). */
  after?: string
  /** At most this many keys. */
  limit: number
}

/** What a read-modify-write (`Store.update`) reads through: the store as it stands then. */
export type StoreReader = Pick<
  Store,
  'getMeta' | 'getSecret' | 'getKey' | 'scanKeys' | 'getProc' | 'snapshot'
>

export interface Store {
  getMeta(key: string): Promise<Json | undefined>
  getSecret(id: string): Promise<SecretRecord | undefined>
  /** Every secret, oldest first. */
  listSecrets(): Promise<SecretRecord[]>
  getKey(bucket: string, key: string): Promise<Json | undefined>
  /** Keys of one bucket in ascending code-unit order (the order of `<` on strings). */
  scanKeys(bucket: string, options: ScanOptions): Promise<string[]>
  /** Every bucket holding at least one key, with its count of keys, in code-unit order. */
  listBuckets(): Promise<BucketCount[]>
  getProc(name: string): Promise<ProcRecord | undefined>
  /** Every stored procedure, by name. */
  listProcs(): Promise<ProcRecord[]>
  /** Applies every mutation in order, atomically: on any failure nothing is written. */
  commit(mutations: readonly Mutation[]): Promise<void>
  /**
   * Optional, for a store several processes write: reads what `plan` asks for and commits the
   * mutations it returns as one step, in turn with every other `update` of this store's data in
   * any process, so that nothing `plan` read has changed when they are applied. The engine
   * counts through it (the account's usage, the clock's offset). A store without it is written
   * by one process: the engine then reads and commits in turn with its own other updates.
   */
  update?(plan: (reader: StoreReader) => Promise<readonly Mutation[]>): Promise<void>
  /** A consistent copy of everything. */
  snapshot(): Promise<StoreSnapshot>
  close(): Promise<void>
}

/** A precondition of `commit` did not hold; nothing was written. */
export class StoreConflictError extends Error {
  readonly code = 'store_conflict'
  constructor(message: string) {
    super(message)
    this.name = 'StoreConflictError'
  }
}
