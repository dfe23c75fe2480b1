import { navigate, routeHref, useRoute, useRouteParam } from '../shared/router'

/**
 * What the log view keeps in the URL, one hook per value: the open exchange (`id`, a link
 * the console and the views give), and the filters (`status`, `endpoint`).
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
