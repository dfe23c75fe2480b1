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
  commit: (mutations: readonly Mutation[]) => Promise<void> = (mutations) =>
    store.commit(mutations),
): Overlay {
  const keys = new Map<string, Map<string, Pending<Json>>>()
  const procs = new Map<string, Pending<ProcRecord>>()
  const log: Mutation[] = []
  // What was read from the store beneath, first reading of each only: that is what the request
  // went on from.
  const keysRead = new Map<string, { bucket: string; key: string; value: string | undefined }>()
  const procsRead = new Map<string, string | undefined>()
  const scansRead: Array<{ bucket: string; options: ScanOptions; keys: string[] }> = []
  let reads = 0

  async function readKey(bucket: string, key: string): Promise<Json | undefined> {
    reads++
    const value = await store.getKey(bucket, key)
    const id = JSON.stringify([bucket, key])
    if (!keysRead.has(id)) keysRead.set(id, { bucket, key, value: seen(value) })
    return value
  }

  async function readScan(bucket: string, options: ScanOptions): Promise<string[]> {
    reads++
    const keys = await store.scanKeys(bucket, options)
    scansRead.push({ bucket, options, keys: [...keys] })
    return keys
  }

  async function readProc(name: string): Promise<ProcRecord | undefined> {
    reads++
    const record = await store.getProc(name)
    if (!procsRead.has(name)) procsRead.set(name, seen(record))
    return record
  }

  const bucketOf = (bucket: string) => {
    let pending = keys.get(bucket)
    if (!pending) keys.set(bucket, (pending = new Map()))
    return pending
  }

  async function scanKeys(bucket: string, options: ScanOptions): Promise<string[]> {
    const { prefix, after, limit } = options
    const inRange = [...(keys.get(bucket) ?? [])].filter(
      ([key]) => key.startsWith(prefix) && (after === undefined || key > after),
    )
    if (inRange.length === 0) return readScan(bucket, options)
    const deleted = new Set(inRange.filter(([, entry]) => entry === null).map(([key]) => key))
    // Asking for as many more as were deleted keeps the first `limit` survivors in view.
    const base = await readScan(bucket, { ...options, limit: limit + deleted.size })
    const merged = new Set(base.filter((key) => !deleted.has(key)))
    for (const [key, entry] of inRange) if (entry !== null) merged.add(key)
    return [...merged].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, limit)
  }

  /** The store's counts, moved by each pending write that adds or removes a key. */
  async function listBuckets(): Promise<BucketCount[]> {
    const counts = new Map((await store.listBuckets()).map(({ bucket, keys }) => [bucket, keys]))
    for (const [bucket, pending] of keys) {
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

  return {
    getMeta: (key) => store.getMeta(key),
    getSecret: (id) => store.getSecret(id),
    listSecrets: () => store.listSecrets(),
    listProcs: () => store.listProcs(),
    snapshot: () => store.snapshot(),
    close: () => store.close(),
    async getKey(bucket, key) {
      const pending = keys.get(bucket)?.get(key)
      if (pending !== undefined)
        return pending === null ? undefined : structuredClone(pending.value)
      return readKey(bucket, key)
    },
    scanKeys,
    listBuckets,
    async getProc(name) {
      const pending = procs.get(name)
      if (pending !== undefined) return pending === null ? undefined : pending.value
      return readProc(name)
    },
    async commit(mutations) {
      buffer(mutations)
      log.push(...mutations)
    },
    savepoint() {
      const at = log.length
      return () => {
        log.length = at
        keys.clear()
        procs.clear()
        buffer(log)
      }
    },
    async flush() {
      if (log.length > 0) await commit(log)
    },
    writes: log,
    get reads() {
      return reads
    },
    async unchanged(reader) {
      for (const { bucket, key, value } of keysRead.values()) {
        if (seen(await reader.getKey(bucket, key)) !== value) return false
      }
      for (const [name, record] of procsRead) {
        if (seen(await reader.getProc(name)) !== record) return false
      }
      for (const { bucket, options, keys } of scansRead) {
        const now = await reader.scanKeys(bucket, options)
        if (now.length !== keys.length || now.some((key, i) => key !== keys[i])) return false
      }
      return true
    },
  }

  function buffer(mutations: readonly Mutation[]): void {
    for (const mutation of mutations) {
      switch (mutation.op) {
        case 'setKey':
          bucketOf(mutation.bucket).set(mutation.key, { value: copyValue(mutation.value) })
          break
        case 'deleteKey':
          bucketOf(mutation.bucket).set(mutation.key, null)
          break
        case 'putProc':
          procs.set(mutation.proc.name, { value: mutation.proc })
          break
        case 'deleteProc':
          procs.set(mutation.name, null)
          break
        default:
          throw new Error(`a request may not ${mutation.op} while it runs`)
      }
    }
  }
}
