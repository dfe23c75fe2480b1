import { queryOptions } from '@tanstack/react-query'
import { accountKeys } from '../account/queries'
import { listProcedures } from './api'

export const authorizationKeys = {
  /** Under the account's keys: a reset or an import changes them too. */
  procedures: (baseUrl: string) => [...accountKeys.all(baseUrl), 'procedures'] as const,
  minted: (baseUrl: string) => ['authorizations', baseUrl, 'minted'] as const,
}

/** The stored procedure names (`lib.<name>` abilities), sorted. */
export const proceduresQuery = (baseUrl: string) =>
  queryOptions({
    queryKey: authorizationKeys.procedures(baseUrl),
    queryFn: async () => (await listProcedures(baseUrl)).map((proc) => proc.name).sort(),
  })
