import {
  queryOptions,
  useMutation,
  useQueryClient,
  type UseMutationOptions,
} from '@tanstack/react-query'
import {
  compareBranches,
  getClock,
  getSeed,
  listBranches,
  inspectToken,
  listBuckets,
  listEndpoints,
  listProcedures,
  listSecrets,
} from './api'
import { useConfig, type PlaygroundConfig } from './config'
import { listRemembered } from './page-store'

/**
 * The playground's query keys, written once (TanStack's query-key factory). Each key holds one
 * shape; a view that wants another picks it with `select`. Everything the account holds sits
 * under `keys.account`, so one invalidation refetches it all.
 */
export const keys = {
  account: (baseUrl: string) => ['account', baseUrl] as const,
  secrets: (baseUrl: string) => [...keys.account(baseUrl), 'secrets'] as const,
  clock: (baseUrl: string) => [...keys.account(baseUrl), 'clock'] as const,
  /** Every stored procedure's record. */
  procedures: (baseUrl: string) => [...keys.account(baseUrl), 'procedures'] as const,
  inspect: (baseUrl: string, token: string) =>
    [...keys.account(baseUrl), 'inspect', token] as const,
  /** The authorizations this page remembers (page storage, not the engine's). */
  remembered: (baseUrl: string) => [...keys.account(baseUrl), 'remembered'] as const,
  keyv: (baseUrl: string) => [...keys.account(baseUrl), 'keyv'] as const,
  buckets: (baseUrl: string) => [...keys.keyv(baseUrl), 'buckets'] as const,
  keyvPage: (baseUrl: string, token: string, scan: object) =>
    [...keys.keyv(baseUrl), 'page', token, scan] as const,
  keyvValue: (baseUrl: string, token: string, bucket: string, key: string) =>
    [...keys.keyv(baseUrl), 'value', token, bucket, key] as const,
  /** Fixed for an engine's life: outside the account. */
  catalogue: (baseUrl: string) => ['catalogue', baseUrl] as const,
  /** A program compiled by `core.compile`: it depends on the text (and the token's abilities) only. */
  compile: (baseUrl: string, token: string, code: string) =>
    ['compile', baseUrl, token, code] as const,
  /** The account's branches (decision 086). */
  branches: (baseUrl: string) => [...keys.account(baseUrl), 'branches'] as const,
  seed: (baseUrl: string) => [...keys.account(baseUrl), 'seed'] as const,
  compare: (baseUrl: string, a: string, b: string) =>
    [...keys.account(baseUrl), 'compare', a, b] as const,
  /** This tab's exchange log, read by one reader (`exchange-log.ts`). */
  exchanges: (baseUrl: string) => ['exchanges', baseUrl] as const,
}

export const secretsQuery = (baseUrl: string) =>
  queryOptions({ queryKey: keys.secrets(baseUrl), queryFn: () => listSecrets(baseUrl) })

export const branchesQuery = (baseUrl: string) =>
  queryOptions({ queryKey: keys.branches(baseUrl), queryFn: () => listBranches(baseUrl) })

export const seedQuery = (baseUrl: string) =>
  queryOptions({ queryKey: keys.seed(baseUrl), queryFn: () => getSeed(baseUrl) })

export const compareQuery = (baseUrl: string, a: string, b: string) =>
  queryOptions({
    queryKey: keys.compare(baseUrl, a, b),
    queryFn: () => compareBranches(baseUrl, a, b),
  })

export const clockQuery = (baseUrl: string) =>
  queryOptions({ queryKey: keys.clock(baseUrl), queryFn: () => getClock(baseUrl) })

/** Every stored procedure's record; views that want names pick them with `select`. */
export const proceduresQuery = (baseUrl: string) =>
  queryOptions({ queryKey: keys.procedures(baseUrl), queryFn: () => listProcedures(baseUrl) })

export const bucketsQuery = (baseUrl: string) =>
  queryOptions({ queryKey: keys.buckets(baseUrl), queryFn: () => listBuckets(baseUrl) })

/** What the engine says a token is now; refetched with the account (rolls, the clock). */
export const inspectQuery = (baseUrl: string, token: string) =>
  queryOptions({
    queryKey: keys.inspect(baseUrl, token),
    queryFn: () => inspectToken(baseUrl, token),
  })

export const rememberedQuery = (config: PlaygroundConfig) =>
  queryOptions({
    queryKey: keys.remembered(config.baseUrl),
    queryFn: () => listRemembered(config),
  })

export const catalogueQuery = (baseUrl: string) =>
  queryOptions({
    queryKey: keys.catalogue(baseUrl),
    queryFn: () => listEndpoints(baseUrl),
    // The catalogue is fixed for an engine's life.
    staleTime: Infinity,
  })

/**
 * Stored procedure names, sorted, each once: the shape the catalogue tree and the console pick.
 * A dev stage is stored as `<name>:dev` beside the release; both are the procedure `<name>`.
 */
export const procedureNames = (records: ReadonlyArray<{ name: string }>): string[] =>
  [...new Set(records.map((record) => record.name.replace(/:dev$/, '')))].sort()

/**
 * A change to the account, from any view: creating or rolling a secret, moving the clock, a
 * key written, a procedure stored, any call the console sends. One rule: once it settles,
 * failed or not, everything under the account is read again.
 */
export function useAccountMutation<Result, Variables = void>(
  mutationFn: (variables: Variables) => Promise<Result>,
  options: Omit<UseMutationOptions<Result, Error, Variables>, 'mutationFn' | 'onSettled'> = {},
) {
  const { baseUrl } = useConfig()
  const queryClient = useQueryClient()
  return useMutation({
    ...options,
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.account(baseUrl) }),
  })
}
