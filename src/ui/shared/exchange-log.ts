import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { afterPaint } from './after-paint'
import { listExchanges } from './api'
import { useConfig, type PlaygroundConfig } from './config'
import { changesProcedures, mintedIn } from './minted'
import {
  appendToLog,
  clearTabLog,
  MAX_LOGGED,
  remember,
  tabLogPage,
  type PageExchange,
} from './page-store'
import { emptiedLog, holdingLog, type LogState } from './log-state'
import { keys } from './queries'
import type { SentRequest } from './wire'

export type { SentRequest }
export { emptiedLog, holdingLog, type LogEmptied, type LogState } from './log-state'

/**
 * The one reader of the engine's exchange log. It reads what is new since its last read, keeps
 * it in the page's storage (so this tab's log survives a reload), remembers every authorization
 * an `auth.create` answered, and tells the procedure lists when one was stored or deleted. The
 * app polls it; views read what it holds, and ask it for a fresh read when they need one.
 */

/** How often the app reads the engine's log while the page is visible. */
export const POLL_MS = 1000

export const exchangeLogQuery = (config: PlaygroundConfig) =>
  queryOptions({
    queryKey: keys.exchanges(config.baseUrl),
    // The state is read once the work before this read is done (a reset, an import), not before.
    queryFn: ({ client }) => holdingLog(config.baseUrl, () => follow(config, client)),
    staleTime: 0,
  })

async function follow(config: PlaygroundConfig, client: QueryClient): Promise<LogState> {
  const key = keys.exchanges(config.baseUrl)
  const known = client.getQueryData<LogState>(key)
  // The newest record read is asked for again: when it does not come back, the engine's log
  // was emptied since (a clear or a reset, from a view or from code in the page). A first read
  // asks the engine for its whole log while it reads the page's newest exchanges, and shows
  // those at once: the engine may still be starting (decision 115).
  const asked = listExchanges(
    config.baseUrl,
    known && known.cursor > 1 ? known.cursor - 1 : undefined,
  )
  // Its failure is thrown where it is awaited, below; it may come while the first rows are read.
  asked.catch(() => undefined)
  let shown = known
  if (!shown) {
    shown = await firstRead(config)
    // Kept if the engine's answer fails: the page's rows stay shown beside the error.
    client.setQueryData<LogState>(key, shown)
  }
  const page = await asked
  // Built on what the views hold by now (the first rows, older parts read meanwhile).
  const state = client.getQueryData<LogState>(key) ?? shown
  const cleared = state.cursor > 0 && !page.exchanges.some((record) => record.id === state.cursor)
  if (cleared) await clearTabLog(config)
  const since = cleared ? 0 : state.cursor
  // A log this tab emptied itself keeps the reason it gave; one emptied by anything else (code
  // in the page) says so.
  const base = !cleared
    ? state
    : state.entries.length > 0
      ? { ...emptiedLog(state, 'elsewhere'), cursor: 0 }
      : { ...state, cursor: 0 }
  const fresh = page.exchanges.filter((record) => record.id > since).sort((a, b) => a.id - b.id)
  if (fresh.length === 0) return base

  const kept = await appendToLog(config, fresh)
  const minted = mintedIn(fresh)
  if (minted.length > 0) {
    await remember(config, minted)
    void client.invalidateQueries({ queryKey: keys.remembered(config.baseUrl) })
  }
  if (changesProcedures(fresh, config.serviceName)) {
    void client.invalidateQueries({ queryKey: keys.procedures(config.baseUrl) })
  }
  // Older parts may have been read while this one was stored.
  const latest = cleared ? base : (client.getQueryData<LogState>(key) ?? base)
  return {
    ...latest,
    entries: [...kept.reverse(), ...latest.entries].slice(0, MAX_LOGGED),
    total: Math.min(latest.total + kept.length, MAX_LOGGED),
    cursor: fresh.at(-1)!.id,
  }
}

/** Exchanges read at once when the log is first read: the newest, what a view draws first. */
export const FIRST_PAGE = 200

/** Exchanges read at a time when the rest of the log is read. */
export const OLDER_PAGE = 1000

/** The log as first read: its newest exchanges only, however many the page keeps. */
async function firstRead(config: PlaygroundConfig): Promise<LogState> {
  const page = await tabLogPage(config, { count: FIRST_PAGE })
  return {
    entries: page.entries,
    cursor: 0,
    total: page.total,
    // Exchanges up to the newest read came from an engine before this page's (a reload).
    from: (page.entries[0]?.id ?? 0) + 1,
    ...(page.older === undefined ? {} : { older: page.older }),
  }
}

/** The read of the log's older part under way, per configuration: one at a time. */
const reading = new Map<string, Promise<void>>()

/**
 * Reads the rest of this tab's log, older part by older part, into the reader's state, each part
 * shown as it comes. Once at a time; done when the state holds the whole log.
 */
export function readOlder(config: PlaygroundConfig, client: QueryClient): Promise<void> {
  const key = keys.exchanges(config.baseUrl)
  let under = reading.get(config.baseUrl)
  if (!under) {
    under = (async () => {
      for (;;) {
        const before = client.getQueryData<LogState>(key)?.older
        if (before === undefined) return
        const page = await tabLogPage(config, { before, count: OLDER_PAGE })
        client.setQueryData<LogState>(key, (log) => {
          // A reset or a clear since: what was read is gone with the rest.
          if (!log || log.older !== before) return log
          const { older: _read, ...rest } = log
          const entries = [...log.entries, ...page.entries]
          // The page keeps MAX_LOGGED: what lies below (a log written past it) is not read.
          return entries.length >= MAX_LOGGED || page.older === undefined
            ? {
                ...rest,
                entries: entries.slice(0, MAX_LOGGED),
                total: Math.min(log.total, MAX_LOGGED),
              }
            : { ...rest, entries, older: page.older }
        })
      }
    })().finally(() => reading.delete(config.baseUrl))
    reading.set(config.baseUrl, under)
  }
  return under
}

/**
 * This tab's whole log, for a view that searches, counts or saves all of it: the reader's state,
 * with its older part read in the background as soon as the view shows (the newest come first).
 * `complete` says whether it is all there yet.
 */
export function useWholeLog() {
  const config = useConfig()
  const client = useQueryClient()
  const log = useExchangeLog()
  const older = log.data?.older
  useEffect(() => {
    if (older !== undefined) void readOlder(config, client)
  }, [older, config, client])
  return { ...log, complete: log.isSuccess && older === undefined }
}

/**
 * The longest the reader waits for the first screen to be painted before it first reads: the
 * page's log may hold thousands of exchanges, which the first screen does not wait for. A view
 * that shows the log reads at once.
 */
export const FIRST_READ_MS = 300

/**
 * Mounted once, by the app: reads the engine's log once the first screen is painted, so that
 * the log's newest rows are read by the time it is opened, then every second while the page is
 * visible.
 */
export function ExchangeLogFollower(): null {
  const config = useConfig()
  const [started, setStarted] = useState(false)
  useEffect(() => afterPaint(() => setStarted(true), FIRST_READ_MS), [])
  useQuery({ ...exchangeLogQuery(config), refetchInterval: POLL_MS, enabled: started })
  return null
}

/** This tab's exchange log, newest first, as the reader last read it (read again on mount). */
export function useExchangeLog() {
  return useQuery(exchangeLogQuery(useConfig()))
}

/** The newest logged exchange that is `sent`'s answer. */
export function findLogged(
  entries: readonly PageExchange[],
  sent: SentRequest,
): PageExchange | undefined {
  return entries.find(
    ({ request, response, startedAt }) =>
      request.method === sent.method &&
      request.url === sent.url &&
      response.status === sent.status &&
      startedAt >= sent.sentAt - 1,
  )
}

/**
 * The logged exchange of a request this page sent (`undefined` until found, `null` when the
 * log has none: the engine keeps no log, or it was cleared). Reads the log afresh to find it.
 */
export function useLoggedExchange(sent: SentRequest | undefined) {
  const config = useConfig()
  return useQuery({
    queryKey: [...keys.exchanges(config.baseUrl), 'find', sent ?? null],
    enabled: sent !== undefined,
    staleTime: Infinity,
    queryFn: async ({ client }) => {
      // A read already under way may have started before the answer was logged: try again.
      for (let tries = 0; tries < 3; tries++) {
        const log = await client.fetchQuery({ ...exchangeLogQuery(config), staleTime: 0 })
        const found = findLogged(log.entries, sent!)
        if (found) return found
      }
      return null
    },
  }).data
}
