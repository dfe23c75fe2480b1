import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { Json, SimulateCall, WatchesReport } from '../../engine'
import { control } from '../shared/api'
import { useNow } from '../shared/clock'
import { useConfig } from '../shared/config'
import { keys } from '../shared/queries'
import type { TokenChoice } from '../shared/tokens'

/**
 * Watches (decision 088): assertions kept with the account, each asked again of the engine's
 * rules at every read (`GET /_account/watches`). Under `keys.account`: any change to the account
 * reads them again, and so does the ticking clock passing the next moment a watched token stops.
 */

export type { WatchesReport, WatchReport } from '../../engine'

export const watchesKey = (baseUrl: string) => [...keys.account(baseUrl), 'watches'] as const

export const watchesQuery = (baseUrl: string) =>
  queryOptions({
    queryKey: watchesKey(baseUrl),
    queryFn: () => control<WatchesReport>(baseUrl, 'GET', 'watches'),
  })

/** What a watch pins: that `token` is let in by `call`, or refused. */
export interface WatchRequest {
  token: string
  call: SimulateCall
  expect: 'allowed' | 'refused'
  label?: string
}

export const pinWatch = (baseUrl: string, watch: WatchRequest) =>
  control<WatchesReport>(baseUrl, 'POST', 'watches', watch as unknown as Record<string, Json>)

export const removeWatch = (baseUrl: string, id: string) =>
  control<WatchesReport>(baseUrl, 'POST', `watches/${encodeURIComponent(id)}/delete`, {})

/** The watches, asked again as the account changes and when a watched token stops. */
export function useWatches() {
  const { baseUrl } = useConfig()
  const queryClient = useQueryClient()
  const query = useQuery(watchesQuery(baseUrl))
  const now = useNow()
  const report = query.data
  const passed =
    report?.changesAt != null &&
    report.changesAt > report.at &&
    now !== undefined &&
    now >= report.changesAt
  useEffect(() => {
    if (passed) void queryClient.invalidateQueries({ queryKey: watchesKey(baseUrl), exact: true })
  }, [passed, queryClient, baseUrl])
  return query
}

/** The longest label the engine keeps with a watch. */
export const MAX_WATCH_LABEL = 200

/**
 * What a watch calls its token: a secret by its id, an authorization by what it holds. A long
 * list of abilities is cut at a whole ability and says how many more there are, so the label
 * stays within what the engine keeps.
 */
export function watchLabel(choice: TokenChoice): string {
  if (choice.kind === 'secret') return `secret ${choice.id.slice('secret:'.length)}`
  const abilities = choice.report?.details?.abilities
  if (!abilities) return 'an authorization'
  const label = (shown: number) => {
    const more = abilities.length - shown
    const rest = more > 0 ? `${shown > 0 ? ', ' : ''}and ${more} more` : ''
    return `the authorization [${abilities.slice(0, shown).join(', ')}${rest}]`
  }
  let shown = abilities.length
  while (shown > 0 && label(shown).length > MAX_WATCH_LABEL) shown--
  return label(shown).slice(0, MAX_WATCH_LABEL)
}
