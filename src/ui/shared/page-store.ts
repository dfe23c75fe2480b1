import { openDB, type DBSchema, type IDBPDatabase } from 'idb'
import type { ExchangeRecord, LoggedBody } from '../../engine'
import { databaseName, type PlaygroundConfig } from './config'

/**
 * What the page keeps beside the engine's account, in an IndexedDB database of its own per
 * configuration: the authorizations made in it (signed tokens the engine does not store) and
 * the exchange log of each tab (each tab runs its own engine, whose log lives in memory), so
 * both survive a reload and travel in the Settings export. Both are bounded.
 */

/** An authorization this page remembers. */
export interface SavedAuthorization {
  token: string
  /** Real time it was remembered, in milliseconds since the Unix epoch. */
  savedAt: number
}

/** A logged exchange as the page keeps it: `id` is the page's own, `tab` the tab that made it. */
export interface PageExchange extends ExchangeRecord {
  tab: string
  /** The exchange's id in the engine's journal, which a rewind names (`id` is the page's). */
  engineId?: number
}

/** The most authorizations, and logged exchanges, the page keeps; the oldest go first. */
export const MAX_REMEMBERED = 500
export const MAX_LOGGED = 10_000

/**
 * The newest exchanges keep their bodies as the engine logged them (up to 64 KiB each); older
 * ones keep the first `COMPACT_BODY_CHARS` characters of each, marked cut, so that ten thousand
 * exchanges stay a few tens of megabytes at most.
 */
export const KEPT_WHOLE = 500
export const COMPACT_BODY_CHARS = 2048

/**
 * How many exchanges the engine's own log holds between two reads of it (a second apart): what
 * the page keeps is in its own database, so this only has to outlast a burst.
 */
export const MAX_ENGINE_LOG = 1000

interface PageSchema extends DBSchema {
  authorizations: { key: string; value: SavedAuthorization; indexes: { savedAt: number } }
  exchanges: { key: number; value: PageExchange; indexes: { tab: string } }
}

/** The tab this page runs in: kept in `sessionStorage`, so a reload keeps it. */
export function tabId(): string {
  const key = 'playground:tab'
  let id = sessionStorage.getItem(key)
  if (!id) sessionStorage.setItem(key, (id = `tab_${crypto.randomUUID()}`))
  return id
}

const opened = new Map<string, Promise<IDBPDatabase<PageSchema>>>()

function open(config: PlaygroundConfig): Promise<IDBPDatabase<PageSchema>> {
  const name = pageDatabaseName(config)
  let db = opened.get(name)
  if (!db) {
    db = openDB<PageSchema>(name, 1, {
      upgrade(database) {
        database
          .createObjectStore('authorizations', { keyPath: 'token' })
          .createIndex('savedAt', 'savedAt')
        database
          .createObjectStore('exchanges', { keyPath: 'id', autoIncrement: true })
          .createIndex('tab', 'tab')
      },
    })
    opened.set(name, db)
    db.catch(() => opened.delete(name))
  }
  return db
}

/** The page's database for a configuration; also the name of its BroadcastChannel. */
export const pageDatabaseName = (config: PlaygroundConfig) => `${databaseName(config)}:page`

/** Tells the other tabs of the configuration that the remembered authorizations changed. */
function announce(config: PlaygroundConfig): void {
  const channel = new BroadcastChannel(pageDatabaseName(config))
  channel.postMessage({ type: 'page-changed' })
  channel.close()
}

/** The remembered authorizations, newest first. */
export async function listRemembered(config: PlaygroundConfig): Promise<SavedAuthorization[]> {
  const db = await open(config)
  return (await db.getAllFromIndex('authorizations', 'savedAt')).reverse()
}

/** Remembers authorizations not remembered yet, newest last in `tokens`. */
export async function remember(config: PlaygroundConfig, tokens: readonly string[]): Promise<void> {
  if (tokens.length === 0) return
  const db = await open(config)
  const tx = db.transaction('authorizations', 'readwrite')
  let now = Date.now()
  let added = false
  for (const token of tokens) {
    if (await tx.store.getKey(token)) continue
    await tx.store.put({ token, savedAt: now++ })
    added = true
  }
  await trim(await tx.store.count(), MAX_REMEMBERED, () => tx.store.index('savedAt').openCursor())
  await tx.done
  if (added) announce(config)
}

/** Puts back authorizations exactly as they were (an undo, or an import). */
export async function restoreRemembered(
  config: PlaygroundConfig,
  saved: readonly SavedAuthorization[],
  { replace = false } = {},
): Promise<void> {
  const db = await open(config)
  const tx = db.transaction('authorizations', 'readwrite')
  if (replace) await tx.store.clear()
  for (const item of saved) await tx.store.put(item)
  await trim(await tx.store.count(), MAX_REMEMBERED, () => tx.store.index('savedAt').openCursor())
  await tx.done
  announce(config)
}

export async function forget(config: PlaygroundConfig, token: string): Promise<void> {
  const db = await open(config)
  await db.delete('authorizations', token)
  announce(config)
}

export async function forgetAll(config: PlaygroundConfig): Promise<void> {
  const db = await open(config)
  await db.clear('authorizations')
  announce(config)
}

/** This tab's logged exchanges, newest first. */
export async function tabLog(config: PlaygroundConfig, tab = tabId()): Promise<PageExchange[]> {
  const db = await open(config)
  return (await db.getAllFromIndex('exchanges', 'tab', tab)).reverse()
}

/** A part of this tab's log, newest first, and where the rest of it is. */
export interface LogPage {
  entries: PageExchange[]
  /** Page ids below this one are older, not read yet; `undefined` when none is left. */
  older: number | undefined
  /** How many exchanges this tab's log holds in all. */
  total: number
}

/**
 * This tab's exchanges with page ids below `before` (the newest when not given), newest first:
 * at least `count` of them when there are that many, read a range of ids at a time from the
 * newest down, so that what is read does not grow with the log (a log of 100,000 opens as
 * fast as one of 200). Ranges are read whole: a few more than `count` may come back.
 */
export async function tabLogPage(
  config: PlaygroundConfig,
  { before, count }: { before?: number; count: number },
  tab = tabId(),
): Promise<LogPage> {
  const db = await open(config)
  const tx = db.transaction('exchanges')
  const [oldest, newest, total] = await Promise.all([
    tx.store.openKeyCursor(),
    tx.store.openKeyCursor(null, 'prev'),
    tx.store.index('tab').count(tab),
  ])
  const entries: PageExchange[] = []
  if (!oldest || !newest) return { entries, older: undefined, total }
  const floor = oldest.key
  let below = Math.min(before ?? Infinity, newest.key + 1)
  while (entries.length < count && below > floor) {
    const from = Math.max(floor, below - Math.max(count - entries.length, 64))
    const range = await tx.store.getAll(IDBKeyRange.bound(from, below, false, true))
    for (let i = range.length - 1; i >= 0; i--) if (range[i]!.tab === tab) entries.push(range[i]!)
    below = from
  }
  await tx.done
  return { entries, older: below > floor ? below : undefined, total }
}

/**
 * Appends exchanges (oldest first) to this tab's log; answers them as kept, with the page's
 * ids, oldest first. The whole log keeps the last `MAX_LOGGED`. `fromEngine`: the records are
 * this page's engine's, whose ids a rewind names; not so for a file's.
 */
export async function appendToLog(
  config: PlaygroundConfig,
  records: readonly ExchangeRecord[],
  tab = tabId(),
  fromEngine = true,
): Promise<PageExchange[]> {
  const db = await open(config)
  const tx = db.transaction('exchanges', 'readwrite')
  const kept: PageExchange[] = []
  for (const record of records) {
    const { id: recordId, engineId: _theirs, ...rest } = record as PageExchange
    const engineId = fromEngine ? recordId : undefined
    const entry = { ...rest, tab, ...(engineId === undefined ? {} : { engineId }) }
    const id = await tx.store.add(entry as PageExchange)
    kept.push({ ...entry, id })
  }
  const newest = kept.at(-1)?.id
  if (newest !== undefined) {
    // The exchanges that have just fallen out of the newest KEPT_WHOLE keep less of their bodies.
    const range = IDBKeyRange.bound(newest - KEPT_WHOLE - kept.length + 1, newest - KEPT_WHOLE)
    if (newest - KEPT_WHOLE >= 1) {
      for (const old of await tx.store.getAll(range)) {
        const smaller = compacted(old)
        if (smaller !== old) await tx.store.put(smaller)
      }
    }
  }
  const excess = (await tx.store.count()) - MAX_LOGGED
  if (excess > 0) {
    const oldest = await tx.store.getAllKeys(null, excess)
    await tx.store.delete(IDBKeyRange.bound(oldest[0]!, oldest.at(-1)!))
  }
  await tx.done
  return kept
}

/** An exchange with each body cut to its first `COMPACT_BODY_CHARS` characters, marked cut. */
export function compacted(entry: PageExchange): PageExchange {
  const request = cut(entry.request.body)
  const response = cut(entry.response.body)
  if (request === entry.request.body && response === entry.response.body) return entry
  return {
    ...entry,
    request: { ...entry.request, body: request },
    response: { ...entry.response, body: response },
  }
}

function cut(body: LoggedBody | null): LoggedBody | null {
  if (!body) return body
  // Base64 is cut on a whole group of four characters, so what is left still decodes.
  const limit =
    body.encoding === 'base64'
      ? Math.floor((COMPACT_BODY_CHARS * 4) / 3 / 4) * 4
      : COMPACT_BODY_CHARS
  if (body.data.length <= limit) return body
  return { ...body, data: body.data.slice(0, limit), truncated: true }
}

/** Empties this tab's log. */
export async function clearTabLog(config: PlaygroundConfig, tab = tabId()): Promise<void> {
  const db = await open(config)
  const tx = db.transaction('exchanges', 'readwrite')
  for (const key of await tx.store.index('tab').getAllKeys(tab)) await tx.store.delete(key)
  await tx.done
}

/** Replaces this tab's log with `records` (oldest first); answers them with their new ids. */
export async function replaceTabLog(
  config: PlaygroundConfig,
  records: readonly ExchangeRecord[],
  tab = tabId(),
): Promise<PageExchange[]> {
  await clearTabLog(config, tab)
  // A file's exchanges were answered by another engine: none can be gone back to before.
  return appendToLog(config, records, tab, false)
}

/** A cursor over entries, oldest first, that can delete as it goes. */
interface Deleting {
  delete(): Promise<void>
  continue(): Promise<Deleting | null>
}

/** Deletes the first entries `oldest` walks over, until `count` is down to `limit`. */
async function trim(count: number, limit: number, oldest: () => Promise<Deleting | null>) {
  let excess = count - limit
  let cursor = excess > 0 ? await oldest() : null
  while (cursor && excess > 0) {
    await cursor.delete()
    excess--
    cursor = await cursor.continue()
  }
}
