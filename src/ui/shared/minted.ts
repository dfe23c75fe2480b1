import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { ExchangeRecord } from '../../engine'
import type { PlaygroundConfig } from '../config'
import { useConfig } from '../shared/config'
import { saveAuthorization } from '../shared/tokens'
import { loggedBytes } from '../shared/wire'
import { tokenOf } from './answer'
import { listExchanges } from './api'
import { authorizationKeys } from './queries'

/** How often the exchange log is read while the view is open. */
export const MINTED_POLL_MS = 2000

/** The authorizations successful `auth.create` exchanges answered with, oldest first. */
export function mintedIn(records: readonly ExchangeRecord[]): string[] {
  const tokens: string[] = []
  for (const record of [...records].sort((a, b) => a.id - b.id)) {
    const { response, trace } = record
    if (trace.endpoint !== 'auth.create' || response.status !== 200) continue
    const body = response.body
    if (!body || body.truncated) continue
    const bytes = loggedBytes(body)
    const type = response.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1]
    const token = tokenOf(bytes, type ?? '')
    if (token) tokens.push(token)
  }
  return tokens
}

/** Whether any of the records changed the stored procedures (`<service>.create` and the like). */
export const changesProcedures = (records: readonly ExchangeRecord[], serviceName: string) =>
  records.some(
    ({ trace, response }) =>
      response.status === 200 &&
      trace.endpoint !== null &&
      ['create', 'update', 'delete'].some((verb) => trace.endpoint === `${serviceName}.${verb}`),
  )

/**
 * The last exchange read, per base URL, for the page's life: an authorization forgotten here
 * is not remembered again when the view opens anew (the engine's log lives as long as the page).
 */
const cursors = new Map<string, number>()

async function collect(config: PlaygroundConfig, onProcedures: () => void): Promise<number> {
  const after = cursors.get(config.baseUrl) ?? 0
  const { exchanges } = await listExchanges(config.baseUrl, after)
  const newest = exchanges.reduce((max, record) => Math.max(max, record.id), after)
  cursors.set(config.baseUrl, newest)
  for (const token of mintedIn(exchanges)) saveAuthorization(config, token)
  if (changesProcedures(exchanges, config.serviceName)) onProcedures()
  return newest
}

/**
 * While mounted, reads the exchange log every two seconds and remembers every authorization
 * minted in this page (the console, devtools, any code here), so that it is listed too.
 */
export function useMintedWatcher(): void {
  const config = useConfig()
  const queryClient = useQueryClient()
  useQuery({
    queryKey: authorizationKeys.minted(config.baseUrl),
    queryFn: () =>
      collect(config, () => {
        void queryClient.invalidateQueries({
          queryKey: authorizationKeys.procedures(config.baseUrl),
        })
      }),
    refetchInterval: MINTED_POLL_MS,
  })
}
