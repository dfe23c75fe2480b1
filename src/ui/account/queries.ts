import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { getClock, listSecrets } from './api'

export const accountKeys = {
  all: (baseUrl: string) => ['account', baseUrl] as const,
  secrets: (baseUrl: string) => [...accountKeys.all(baseUrl), 'secrets'] as const,
  clock: (baseUrl: string) => [...accountKeys.all(baseUrl), 'clock'] as const,
}

export const secretsQuery = (baseUrl: string) =>
  queryOptions({ queryKey: accountKeys.secrets(baseUrl), queryFn: () => listSecrets(baseUrl) })

export const clockQuery = (baseUrl: string) =>
  queryOptions({ queryKey: accountKeys.clock(baseUrl), queryFn: () => getClock(baseUrl) })

/**
 * A mutation of the account. Creating, rolling and moving the clock all change what secrets
 * show (a roll adds one, time expires them), so every account query is refetched after it.
 */
export function useAccountMutation<Variables, Result>(
  baseUrl: string,
  mutationFn: (variables: Variables) => Promise<Result>,
) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.all(baseUrl) }),
  })
}
