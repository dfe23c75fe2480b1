import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { accountKeys } from '../account/queries'
import { listProcedures } from './api'

/** Under the account's keys, so a reset or an import elsewhere refetches them too. */
const proceduresKey = (baseUrl: string) => [...accountKeys.all(baseUrl), 'procedures'] as const

export const proceduresQuery = (baseUrl: string) =>
  queryOptions({ queryKey: proceduresKey(baseUrl), queryFn: () => listProcedures(baseUrl) })

/** A change to the stored procedures; the list is refetched after it, failed or not. */
export function useProcedureMutation<Variables>(
  baseUrl: string,
  mutationFn: (variables: Variables) => Promise<void>,
) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: proceduresKey(baseUrl) }),
  })
}
