import { queryOptions } from '@tanstack/react-query'
import { listProcedures } from './api'

/** The stored procedures, offered in the endpoint picker as `lib.<name>`. */
export const proceduresQuery = (baseUrl: string) =>
  queryOptions({
    queryKey: ['console', baseUrl, 'procedures'],
    queryFn: () => listProcedures(baseUrl),
  })
