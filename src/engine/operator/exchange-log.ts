import { exchangeSize } from './exchange-draft'
import { recordOf, type ExchangeRecord, type KeptExchange } from './exchange-record'

export { ExchangeDraft, exchangeSize } from './exchange-draft'
export * from './exchange-record'

/**
 * What one account's journal may hold, in bytes of what it keeps of its exchanges (their
 * bodies as kept, each cut at `MAX_LOGGED_BODY_BYTES`, headers and trace; over PostgreSQL, their
 * records' JSON): past it the oldest go, whatever its capacity, so that an account's journal
 * stays far inside what its data may take (decision 071). The newest exchange is always kept.
 */
export const MAX_JOURNAL_BYTES = 4 * 1024 * 1024

/**
 * The last `capacity` exchanges, kept in this process, within `maxBytes` as `exchangeSize`
 * measures them (the oldest go first; the newest is always kept); ids from 1, for its life.
 */
export function createJournal(capacity: number, maxBytes = MAX_JOURNAL_BYTES) {
  /**
   * The kept exchanges, oldest first, from `first` on. A slot before `first` was let go and
   * holds nothing (so what it held is freed at once); the empty slots are cut off in batches.
   */
  let kept: Array<JournalEntry | undefined> = []
  const cutListeners: Array<(after: number) => void> = []
  const cut = (after: number) => cutListeners.forEach((listener) => listener(after))
  let first = 0
  let bytes = 0
  let nextId = 1
  const drop = () => {
    bytes -= kept[first]!.size
    kept[first] = undefined
    first++
  }
  /** Lets go of the oldest past the budget at once, and past the count in batches. */
  const trim = (count: number) => {
    while (kept.length - first > 1 && bytes > maxBytes) drop()
    while (kept.length - first > count) drop()
    if (first > 0) {
      kept = kept.slice(first)
      first = 0
    }
  }
  return {
    /** How many exchanges it keeps; 0 keeps none. */
    get capacity() {
      return capacity
    },
    /** Keeps this many from now on (the newest, when it shrinks). */
    setCapacity(next: number): void {
      capacity = next
      trim(capacity)
    },
    /** Keeps an exchange with the next id; answers its entry (none while the journal is off). */
    add(exchange: KeptExchange): JournalEntry | undefined {
      if (capacity === 0) return undefined
      const size = exchangeSize(exchange)
      const entry = { id: nextId++, exchange, size }
      kept.push(entry)
      bytes += size
      while (kept.length - first > 1 && bytes > maxBytes) drop()
      if (kept.length - first >= 2 * capacity + 64 || first >= 1024) trim(capacity)
      return entry
    },
    /** The entry added last, while it is kept. */
    last: (): JournalEntry | undefined => kept.at(-1),
    /** The entries kept, oldest first: what a branch of the account's history keeps of it. */
    entries(): JournalEntry[] {
      trim(capacity)
      // Trimmed, every slot holds an entry.
      return [...kept] as JournalEntry[]
    },
    /**
     * Holds `entries` (oldest first, ids below the next one) in place of what it held, within
     * its capacity and budget: the journal of another branch of the account's history.
     */
    replaceEntries(entries: readonly JournalEntry[]): void {
      kept = [...entries]
      first = 0
      bytes = entries.reduce((total, entry) => total + entry.size, 0)
      trim(capacity)
    },
    /**
     * Told whenever exchanges other than the oldest are taken out: every one after `after` (0
     * for a clear, the checkpoint's mark for a restore).
     */
    onCut(listener: (after: number) => void): void {
      cutListeners.push(listener)
    },
    /** Newest first; only those after `after` when given. */
    list(after = 0): ExchangeRecord[] {
      trim(capacity)
      const records: ExchangeRecord[] = []
      for (let i = kept.length - 1; i >= 0 && kept[i]!.id > after; i--) {
        const { id, exchange } = kept[i]!
        records.push({ id, ...recordOf(exchange) })
      }
      return records
    },
    clear(): void {
      kept = []
      first = 0
      bytes = 0
      cut(0)
    },
    /** The newest id given so far (0: none). */
    get mark(): number {
      return nextId - 1
    },
    /** Removes every exchange after `id`; ids go on from where they were. */
    dropAfter(id: number): void {
      trim(capacity)
      if (kept.at(-1) && kept.at(-1)!.id <= id) return
      kept = kept.filter((entry) => entry!.id <= id)
      bytes = kept.reduce((sum, entry) => sum + entry!.size, 0)
      cut(id)
    },
    /** What it holds: how many exchanges, and their bytes as `exchangeSize` measures them. */
    get held(): { exchanges: number; bytes: number } {
      return { exchanges: kept.length - first, bytes }
    },
  }
}

export type Journal = ReturnType<typeof createJournal>

/** One exchange as a journal keeps it: its id, what it kept, and what that takes. */
export interface JournalEntry {
  readonly id: number
  readonly exchange: KeptExchange
  readonly size: number
}
