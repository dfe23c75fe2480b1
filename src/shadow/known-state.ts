/**
 * What the mirror account knows of the upstream's state: every key and stored procedure the
 * run wrote (or deleted) through the shadow, by the exchange that last did; every one the
 * upstream and the mirror may hold differently since an exchange that wrote and differed; and,
 * for the exchange being answered, what it read. A difference on an exchange that read what
 * the run never wrote is the upstream's state the engine never saw, not the engine's fault;
 * one that read what an earlier difference left different follows from that one.
 */
import type { Mutation, Store } from '../engine'

/** `k` + bucket + NUL + key, or `p` + a procedure's name (its stage cut off). */
export type Item = string

export const keyItem = (bucket: string, key: string): Item => `k${bucket}\u0000${key}`
export const procItem = (name: string): Item => `p${name.replace(/:dev$/, '')}`
/** Every item of a bucket: what a scan reads. */
const bucketItem = (bucket: string): Item => `b${bucket}`

/** What one exchange read, and what it wrote. */
export interface Touched {
  /** Keys and procedures read (a scan reads its bucket, `b…`). */
  read: Set<Item>
  written: Set<Item>
}

export function describeItem(item: Item): string {
  if (item.startsWith('k')) {
    const [bucket, key] = item.slice(1).split('\u0000')
    return `key \`${key}' of bucket \`${bucket}'`
  }
  if (item.startsWith('b')) return `bucket \`${item.slice(1)}'`
  return `procedure \`lib.${item.slice(1)}'`
}

/** What a `KnownState` knew at one moment (`save`, `load`). */
export interface KnownSnapshot {
  allKnown: boolean
  writers: ReadonlyMap<Item, number>
  buckets: ReadonlyMap<string, ReadonlySet<string>>
  diverged: ReadonlyMap<Item | '*', number>
}

export class KnownState {
  /** After a mirrored reset or import the mirror holds exactly what the upstream does. */
  private allKnown = false
  /** A key or procedure the run wrote → the exchange that last wrote it. */
  private readonly writers = new Map<Item, number>()
  /** Buckets the run wrote a key of, with those keys. */
  private readonly buckets = new Map<string, Set<string>>()
  /** Items the two sides may hold differently → the exchange that left them so; `*` for all. */
  private readonly diverged = new Map<Item | '*', number>()
  private current: { exchange: number; touched: Touched } | undefined

  /** Starts noting what `exchange` reads and writes. */
  begin(exchange: number): void {
    this.current = { exchange, touched: { read: new Set(), written: new Set() } }
  }

  /** Stops noting; what the exchange touched. */
  end(): Touched {
    const touched = this.current?.touched ?? { read: new Set<Item>(), written: new Set<Item>() }
    this.current = undefined
    return touched
  }

  /** The upstream's account is as the mirror's now (a reset, an import seen on both). */
  reset(): void {
    this.allKnown = true
    this.writers.clear()
    this.buckets.clear()
    this.diverged.clear()
  }

  /** What is known now, to come back to when the account does (a checkpoint restored). */
  save(): KnownSnapshot {
    return {
      allKnown: this.allKnown,
      writers: new Map(this.writers),
      buckets: new Map([...this.buckets].map(([bucket, keys]) => [bucket, new Set(keys)])),
      diverged: new Map(this.diverged),
    }
  }

  /** Back to what was known at `save()`: both sides went back to their state then. */
  load(snapshot: KnownSnapshot): void {
    this.allKnown = snapshot.allKnown
    for (const [own, saved] of [
      [this.writers, snapshot.writers],
      [this.diverged, snapshot.diverged],
    ] as const) {
      own.clear()
      for (const [item, exchange] of saved) own.set(item, exchange)
    }
    this.buckets.clear()
    for (const [bucket, keys] of snapshot.buckets) this.buckets.set(bucket, new Set(keys))
  }

  /** The exchange that last wrote an item in the run. */
  writerOf(item: Item): number | undefined {
    return this.writers.get(item)
  }

  /** The writers of every key of a bucket the run wrote (what a scan of it may list). */
  writersOfBucket(bucket: string): number[] {
    return [...(this.buckets.get(bucket) ?? [])].flatMap(
      (key) => this.writers.get(keyItem(bucket, key)) ?? [],
    )
  }

  /**
   * What of these reads the run never wrote: the upstream may hold it from before the run.
   * A scan's bucket counts as known when every key `listed` (the upstream's page) is one the run
   * wrote there; unknown when no page is given.
   */
  unknownReads(touched: Touched, listed?: readonly string[]): Item[] {
    if (this.allKnown) return []
    return [...touched.read].filter((item) => {
      if (!item.startsWith('b')) return !this.writers.has(item)
      const bucket = item.slice(1)
      const wrote = this.buckets.get(bucket)
      return listed === undefined || listed.some((key) => !wrote?.has(key))
    })
  }

  /** Marks items (or `*`, everything) the two sides may now hold differently. */
  diverge(items: ReadonlyArray<Item | '*'>, origin: number): void {
    for (const item of items) if (!this.diverged.has(item)) this.diverged.set(item, origin)
  }

  /** The earlier difference these reads follow from, if they touch what it left different. */
  divergedBy(touched: Touched): number | undefined {
    const all = this.diverged.get('*')
    if (all !== undefined && touched.read.size > 0) return all
    for (const item of touched.read) {
      const origin = this.diverged.get(item)
      if (origin !== undefined) return origin
      if (item.startsWith('b')) {
        const prefix = `k${item.slice(1)}\u0000`
        for (const [other, from] of this.diverged) if (other.startsWith(prefix)) return from
      }
    }
    return undefined
  }

  /** The store the mirror's engine runs on, noting reads and writes for the current exchange. */
  track(store: Store): Store {
    const note = (item: Item, kind: 'read' | 'written') => this.current?.touched[kind].add(item)
    const wrote = (item: Item, bucket?: string, key?: string) => {
      note(item, 'written')
      if (this.current) this.writers.set(item, this.current.exchange)
      if (bucket !== undefined && key !== undefined) {
        let keys = this.buckets.get(bucket)
        if (!keys) this.buckets.set(bucket, (keys = new Set()))
        keys.add(key)
      }
    }
    const apply = (mutation: Mutation) => {
      switch (mutation.op) {
        case 'setKey':
        case 'deleteKey':
          return wrote(keyItem(mutation.bucket, mutation.key), mutation.bucket, mutation.key)
        case 'putProc':
          return wrote(procItem(mutation.proc.name))
        case 'deleteProc':
          return wrote(procItem(mutation.name))
        default:
          return undefined
      }
    }
    return {
      ...store,
      getMeta: (key) => store.getMeta(key),
      getSecret: (id) => store.getSecret(id),
      listSecrets: () => store.listSecrets(),
      listBuckets: () => store.listBuckets(),
      listProcs: () => store.listProcs(),
      snapshot: () => store.snapshot(),
      close: () => store.close(),
      getKey(bucket, key) {
        note(keyItem(bucket, key), 'read')
        return store.getKey(bucket, key)
      },
      scanKeys(bucket, options) {
        note(bucketItem(bucket), 'read')
        return store.scanKeys(bucket, options)
      },
      getProc(name) {
        note(procItem(name), 'read')
        return store.getProc(name)
      },
      async commit(mutations) {
        await store.commit(mutations)
        mutations.forEach(apply)
      },
      ...(store.update
        ? {
            update: (plan) =>
              store.update!(async (reader) => {
                const mutations = await plan(reader)
                mutations.forEach(apply)
                return mutations
              }),
          }
        : {}),
    }
  }
}
