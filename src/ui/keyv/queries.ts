import { queryOptions } from '@tanstack/react-query'
import type { PlaygroundConfig } from '../shared/config'
import { keys } from '../shared/queries'
import { countReachable, getValue, scanKeys, type ScanRequest } from './api'

/** One page of a bucket's keys, as `token` may see it. */
export const pageQuery = (config: PlaygroundConfig, token: string, scan: ScanRequest) =>
  queryOptions({
    queryKey: keys.keyvPage(config.baseUrl, token, scan),
    queryFn: () => scanKeys(config, token, scan),
  })

/** A key's value, as `token` may read it. */
export const valueQuery = (config: PlaygroundConfig, token: string, bucket: string, key: string) =>
  queryOptions({
    queryKey: keys.keyvValue(config.baseUrl, token, bucket, key),
    queryFn: () => getValue(config, token, bucket, key),
  })

/** How many keys of a bucket `token` reaches under `prefixes` (its key-value limits). */
export const reachableQuery = (
  config: PlaygroundConfig,
  token: string,
  bucket: string,
  prefixes: readonly string[],
) =>
  queryOptions({
    queryKey: keys.keyvPage(config.baseUrl, token, { reachable: bucket, prefixes }),
    queryFn: () => countReachable(config, token, bucket, prefixes),
  })
