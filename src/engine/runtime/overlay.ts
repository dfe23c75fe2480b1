import type {
  BucketCount,
  Json,
  Mutation,
  ProcRecord,
  ScanOptions,
  Store,
  StoreReader,
} from '../store'

/**
 * A store whose writes wait for the end of the request, so a request writes all or nothing,
 * and which remembers what the request read from the store beneath, so that it can tell
 * whether all of it still reads the same (see `isolation.ts`).
 */
export interface Overlay extends Store {
  /** The writes buffered so far, in order: what the request commits at its end. */
  readonly writes: readonly Mutation[]
  /** How many reads went to the store beneath (keys, scans and procedures; repeats included). */
  readonly reads: number
  /** Whether every key, scan and procedure read from the store reads the same through `reader`. */
  unchanged(reader: StoreReader): Promise<boolean>
  /** Commits every buffered write in one atomic commit; nothing when none were made. */
  flush(): Promise<void>
  /**
   * Marks the writes made so far; the function it returns forgets every write made since, so
   * that one step of a request (an object `core.deploy` runs) can fail alone.
   */
  savepoint(): () => void
}

/** A stored value as compared: its JSON text (`undefined` for nothing stored). */
const seen = (value: unknown): string | undefined =>
  value === undefined ? undefined : JSON.stringify(value)

type Pending<T> = { value: T } | null

/** A copy of a JSON value: a string, number, boolean or `null` is its own. */
const copyValue = (value: Json): Json =>
  value === null || typeof value !== 'object' ? value : structuredClone(value)

/**
 * Buffers the writes of one request over `store`. Reads see the request's own writes first,
 * scans included; a failed request is simply never flushed, so it leaves nothing behind.
 * `flush` hands the writes to `commit` (the store's own, unless told otherwise).
 */
export function createOverlay(
  store: Store,
  commit?: (mutations: readonly Mutation[]) => Promise<void>,
): Overlay {
  return new RequestOverlay(store, commit)
}

/**
 * One request's overlay: one object, its maps made on first use (a request that reads one
 * secret and writes nothing, as most do, makes none of them).
 */
class RequestOverlay implements Overlay {
  /** Pending writes by bucket and key (`null`: deleted). */
  private keys: Map<string, Map<string, Pending<Json>>> | undefined
  private procs: Map<string, Pending<ProcRecord>> | undefined
  // What was read from the store beneath, first reading of each only: that is what the request
  // went on from.
  private keysRead:
    Map<string, { bucket: string; key: string; value: string | undefined }> | undefined
  private procsRead: Map<string, string | undefined> | undefined
  private scansRead: Array<{ bucket: string; options: ScanOptions; keys: string[] }> | undefined
  readonly writes: Mutation[] = []
  reads = 0

  constructor(
    private readonly store: Store,
    private readonly commitTo?: (mutations: readonly Mutation[]) => Promise<void>,
  ) {}

  getMeta(key: string) {
    return this.store.getMeta(key)
  }
  getSecret(id: string) {
    return this.store.getSecret(id)
  }
  listSecrets() {
    return this.store.listSecrets()
  }
  listProcs() {
    return this.store.listProcs()
  }
  snapshot() {
    return this.store.snapshot()
  }
  close() {
    return this.store.close()
  }

  async getKey(bucket: string, key: string): Promise<Json | undefined> {
    const pending = this.keys?.get(bucket)?.get(key)
    if (pending !== undefined) return pending === null ? undefined : structuredClone(pending.value)
    return this.readKey(bucket, key)
  }

  async getProc(name: string): Promise<ProcRecord | undefined> {
    const pending = this.procs?.get(name)
    if (pending !== undefined) return pending === null ? undefined : pending.value
    return this.readProc(name)
  }

  private async readKey(bucket: string, key: string): Promise<Json | undefined> {
    this.reads++
    const value = await this.store.getKey(bucket, key)
    const id = JSON.stringify([bucket, key])
    const read = (this.keysRead ??= new Map())
    if (!read.has(id)) read.set(id, { bucket, key, value: seen(value) })
    return value
  }

  private async readScan(bucket: string, options: ScanOptions): Promise<string[]> {
    this.reads++
    const keys = await this.store.scanKeys(bucket, options)
    ;(this.scansRead ??= []).push({ bucket, options, keys: [...keys] })
    return keys
  }

  private async readProc(name: string): Promise<ProcRecord | undefined> {
    this.reads++
    const record = await this.store.getProc(name)
    const read = (this.procsRead ??= new Map())
    if (!read.has(name)) read.set(name, seen(record))
    return record
  }

  private bucketOf(bucket: string) {
    const keys = (this.keys ??= new Map())
    let pending = keys.get(bucket)
    if (!pending) keys.set(bucket, (pending = new Map()))
    return pending
  }

  async scanKeys(bucket: string, options: ScanOptions): Promise<string[]> {
    const { prefix, after, limit } = options
    const inRange = [...(this.keys?.get(bucket) ?? [])].filter(
      ([key]) => key.startsWith(prefix) && (after === undefined || key > after),
    )
    if (inRange.length === 0) return this.readScan(bucket, options)
    const deleted = new Set(inRange.filter(([, entry]) => entry === null).map(([key]) => key))
    // Asking for as many more as were deleted keeps the first `limit` survivors in view.
    const base = await this.readScan(bucket, { ...options, limit: limit + deleted.size })
    const merged = new Set(base.filter((key) => !deleted.has(key)))
    for (const [key, entry] of inRange) if (entry !== null) merged.add(key)
    return [...merged].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, limit)
  }

  /** The store's counts, moved by each pending write that adds or removes a key. */
  async listBuckets(): Promise<BucketCount[]> {
    const { store } = this
    const counts = new Map((await store.listBuckets()).map(({ bucket, keys }) => [bucket, keys]))
    for (const [bucket, pending] of this.keys ?? []) {
      for (const [key, entry] of pending) {
        const before = (await store.getKey(bucket, key)) !== undefined
        const after = entry !== null
        if (before !== after) counts.set(bucket, (counts.get(bucket) ?? 0) + (after ? 1 : -1))
      }
    }
    return [...counts]
      .filter(([, count]) => count > 0)
      .map(([bucket, count]) => ({ bucket, keys: count }))
      .sort((a, b) => (a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0))
  }

  async commit(mutations: readonly Mutation[]): Promise<void> {
    this.buffer(mutations)
    this.writes.push(...mutations)
  }

  savepoint(): () => void {
    const at = this.writes.length
    return () => {
      this.writes.length = at
      this.keys?.clear()
      this.procs?.clear()
      this.buffer(this.writes)
    }
  }

  async flush(): Promise<void> {
    if (this.writes.length === 0) return
    await (this.commitTo ? this.commitTo(this.writes) : this.store.commit(this.writes))
  }

  async unchanged(reader: StoreReader): Promise<boolean> {
    for (const { bucket, key, value } of this.keysRead?.values() ?? []) {
      if (seen(await reader.getKey(bucket, key)) !== value) return false
    }
    for (const [name, record] of this.procsRead ?? []) {
      if (seen(await reader.getProc(name)) !== record) return false
    }
    for (const { bucket, options, keys } of this.scansRead ?? []) {
      const now = await reader.scanKeys(bucket, options)
      if (now.length !== keys.length || now.some((key, i) => key !== keys[i])) return false
    }
    return true
  }

  private buffer(mutations: readonly Mutation[]): void {
    for (const mutation of mutations) {
      switch (mutation.op) {
        case 'setKey':
          this.bucketOf(mutation.bucket).set(mutation.key, { value: copyValue(mutation.value) })
          break
        case 'deleteKey':
          this.bucketOf(mutation.bucket).set(mutation.key, null)
          break
        case 'putProc':
          ;(this.procs ??= new Map()).set(mutation.proc.name, { value: mutation.proc })
          break
        case 'deleteProc':
          ;(this.procs ??= new Map()).set(mutation.name, null)
          break
        default:
          throw new Error(`a request may not ${mutation.op} while it runs`)
      }
    }
  }
}
