import { useCallback, useMemo } from 'react'
import { navigate, routeHref, useRoute, useRouteParam } from '../shared/router'

/**
 * What the log view keeps in the URL, one hook per value: the open exchange (`id`, a link
 * the console and the views give), the filters (`status`, `endpoint`), and the exchanges chosen
 * to save as a contract (`chosen`).
 */

/** The open exchange's id, and links and moves that open and close one (history entries). */
export function useOpenExchange() {
  const { view, params } = useRoute()
  const raw = view === 'log' ? (params.get('id') ?? '') : ''
  const id = /^\d+$/.test(raw) ? Number(raw) : null
  const with_ = (value: number | null) => {
    const next = new URLSearchParams(params)
    if (value === null) next.delete('id')
    else next.set('id', String(value))
    return next
  }
  return {
    id,
    hrefOf: (exchange: number) => routeHref('log', with_(exchange)),
    closeHref: routeHref('log', with_(null)),
    open: (exchange: number) => navigate('log', with_(exchange)),
    close: () => navigate('log', with_(null)),
  }
}

/** The status filter: every status (empty), a class (`4xx`) or one status (`401`). */
export const useStatusFilter = () => useRouteParam('log', 'status')

/** Text the endpoint contains. */
export const useEndpointFilter = () => useRouteParam('log', 'endpoint')

/** The token: its kind (`secret`, `authorization`, `none`, `unknown`) or its first characters. */
export const useTokenFilter = () => useRouteParam('log', 'token')

/** The refusal code (`outside_limit`), or `refused` for any refusal. */
export const useCodeFilter = () => useRouteParam('log', 'code')

/** The request's body format (`text`, `json`, `tuples`, `msgpack`, `none`). */
export const useFormatFilter = () => useRouteParam('log', 'format')

/** Text in the request or the answer. */
export const useTextFilter = () => useRouteParam('log', 'text')

/**
 * Page ids as the URL writes them: ascending, runs of consecutive ids as ranges (`3-7,9`).
 * Ids grow and are never reused, so a range never takes in an exchange logged later.
 */
export function formatIds(ids: Iterable<number>): string {
  const sorted = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0)
  sorted.sort((a, b) => a - b)
  const runs: string[] = []
  for (let i = 0; i < sorted.length;) {
    let j = i
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++
    runs.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`)
    i = j + 1
  }
  return runs.join(',')
}

/**
 * The ids `formatIds` wrote, as a test of membership: a range is kept as its two ends, so a
 * link naming `1-999999999` costs nothing. What does not read as ids is ignored.
 */
export function parseIds(text: string): (id: number) => boolean {
  const ranges: Array<[number, number]> = []
  for (const part of text.split(',')) {
    const found = /^\s*(\d{1,15})(?:\s*-\s*(\d{1,15}))?\s*$/.exec(part)
    if (!found) continue
    const from = Number(found[1])
    const to = found[2] === undefined ? from : Number(found[2])
    if (from <= to) ranges.push([from, to])
  }
  return (id) => ranges.some(([from, to]) => id >= from && id <= to)
}

/**
 * The exchanges chosen to save as a contract (`chosen=3-7,9`, page ids), and a setter that
 * writes the ids given (none removes the parameter). Kept in the URL, so leaving the view and
 * coming back, or a reload, finds them chosen.
 */
export function useChosenExchanges(): [
  isChosen: (id: number) => boolean,
  choose: (ids: Iterable<number>) => void,
] {
  const [raw, setRaw] = useRouteParam('log', 'chosen')
  const isChosen = useMemo(() => parseIds(raw ?? ''), [raw])
  const choose = useCallback((ids: Iterable<number>) => setRaw(formatIds(ids) || null), [setRaw])
  return [isChosen, choose]
}
