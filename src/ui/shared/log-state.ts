import type { PageExchange } from './page-store'

/**
 * The shape of this tab's log as its one reader (`exchange-log.ts`) holds it in the query
 * cache, apart from the reader itself: what a reset, a clear or an import writes there.
 */

export interface LogState {
  /** This tab's exchanges read so far, newest first, with the page's ids. */
  entries: PageExchange[]
  /** The newest engine id read; 0 before the first read. */
  cursor: number
  /**
   * Older exchanges of this tab are in the page's storage below this page id, not read yet:
   * the log is read newest first, its older part only when a view needs it (`useWholeLog`).
   * `undefined` once `entries` holds the whole log.
   */
  older?: number
  /** How many exchanges this tab's log holds, read or not. */
  total: number
  /** The last time the log was emptied, and why: what a view says of an exchange it showed. */
  emptied?: LogEmptied
  /**
   * The first page id read from this page's engine: exchanges from before (a reload) were
   * answered by an engine that is gone, and cannot be gone back to before.
   */
  from?: number
}

/** Why this tab's log was emptied: a reset, the Clear button, an import, or code in the page. */
export interface LogEmptied {
  why: 'reset' | 'clear' | 'import' | 'elsewhere'
  /** Real time, in milliseconds since the Unix epoch. */
  at: number
  /** The newest page id the log held before: exchanges up to it were removed. */
  upTo: number
}

/** The log, emptied now for `why` (its newest page id noted, so a view can say what happened). */
export function emptiedLog(
  log: LogState | undefined,
  why: LogEmptied['why'],
  entries: PageExchange[] = [],
): LogState {
  const upTo = Math.max(log?.entries[0]?.id ?? 0, log?.emptied?.upTo ?? 0)
  return {
    entries,
    cursor: log?.cursor ?? 0,
    total: entries.length,
    emptied: { why, at: Date.now(), upTo },
    ...(log?.from === undefined ? {} : { from: log.from }),
  }
}

/** Whether the engine this page runs can go back to before `exchange` (see `LogState.from`). */
export const canRewind = (log: LogState | undefined, exchange: PageExchange): boolean =>
  exchange.engineId !== undefined && log?.from !== undefined && exchange.id >= log.from

/** The work on each base URL's log under way or waiting, the last one queued. */
const held = new Map<string, Promise<unknown>>()

/**
 * Runs `work` on this tab's log (a read of the engine's log, a reset, a clear, an import) when
 * the work queued before it on the same base URL is done: a read never lands between the steps
 * of a reset or an import with what it read before them, and never reads the state they leave
 * half written.
 */
export function holdingLog<T>(baseUrl: string, work: () => Promise<T>): Promise<T> {
  const run = (held.get(baseUrl) ?? Promise.resolve()).then(work)
  const settled = run.catch(() => undefined)
  held.set(baseUrl, settled)
  void settled.then(() => {
    if (held.get(baseUrl) === settled) held.delete(baseUrl)
  })
  return run
}
