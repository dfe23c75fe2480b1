import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { clearExchanges, listExchanges, type ExchangePage } from './api'
import { mergePage, pollAfter } from './records'

export const logKeys = {
  exchanges: (baseUrl: string) => ['exchanges', baseUrl] as const,
}

/** How often the open log asks the engine for newer exchanges. */
export const POLL_MS = 1000

/**
 * The engine's exchange log, newest first. Each poll asks only for what is newer than the list
 * already held (and its newest record, to notice when the log was emptied elsewhere), and
 * merges; it polls while a component uses it.
 */
export const exchangesQuery = (baseUrl: string) =>
  queryOptions({
    queryKey: logKeys.exchanges(baseUrl),
    queryFn: async ({ client, queryKey }): Promise<ExchangePage> => {
      const known = client.getQueryData<ExchangePage>(queryKey)
      return mergePage(known, await listExchanges(baseUrl, pollAfter(known)))
    },
    refetchInterval: POLL_MS,
  })

/** Empties the engine's log, and the list with it. */
export function useClearExchanges(baseUrl: string) {
  const queryClient = useQueryClient()
  const queryKey = logKeys.exchanges(baseUrl)
  return useMutation({
    mutationFn: async () => {
      // A poll answered before the clear must not bring the old records back after it.
      await queryClient.cancelQueries({ queryKey })
      return clearExchanges(baseUrl)
    },
    onSuccess: async () => {
      await queryClient.cancelQueries({ queryKey })
      queryClient.setQueryData<ExchangePage>(queryKey, (page) =>
        page ? { ...page, exchanges: [] } : page,
      )
    },
  })
}
