import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import type { PlaygroundConfig } from '../config'
import { accountKeys } from '../account/queries'
import { getValue, listBuckets, scanKeys, type ScanRequest } from './api'

/** Under the account's keys, so a reset or an import elsewhere refetches them too. */
export const keyvKeys = {
  all: (baseUrl: string) => [...accountKeys.all(baseUrl), 'keyv'] as const,
  buckets: (baseUrl: string) => [...keyvKeys.all(baseUrl), 'buckets'] as const,
}

export const bucketsQuery = (baseUrl: string) =>
  queryOptions({ queryKey: keyvKeys.buckets(baseUrl), queryFn: () => listBuckets(baseUrl) })

export const pageQuery = (config: PlaygroundConfig, token: string, scan: ScanRequest) =>
  queryOptions({
    queryKey: [...keyvKeys.all(config.baseUrl), 'page', token, scan] as const,
    queryFn: () => scanKeys(config, token, scan),
  })

export const valueQuery = (config: PlaygroundConfig, token: string, bucket: string, key: string) =>
  queryOptions({
    queryKey: [...keyvKeys.all(config.baseUrl), 'value', token, bucket, key] as const,
    queryFn: () => getValue(config, token, bucket, key),
  })

/** A write through the key-value endpoints; every key-value query is refetched after it. */
export function useKeyvMutation<Variables>(
  baseUrl: string,
  mutationFn: (variables: Variables) => Promise<void>,
) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keyvKeys.all(baseUrl) }),
  })
}
