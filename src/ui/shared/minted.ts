import type { ExchangeRecord } from '../../engine'
import { mintedToken } from '../../client/exchange'

/** The authorizations successful `auth.create` exchanges answered with, oldest first. */
export function mintedIn(records: readonly ExchangeRecord[]): string[] {
  return [...records]
    .sort((a, b) => a.id - b.id)
    .map(mintedToken)
    .filter((token) => token !== undefined)
}

/** Whether any of the records changed the stored procedures (`<service>.create` and the like). */
export const changesProcedures = (records: readonly ExchangeRecord[], serviceName: string) =>
  records.some(
    ({ trace, response }) =>
      response.status === 200 &&
      trace.endpoint !== null &&
      ['create', 'update', 'delete'].some((verb) => trace.endpoint === `${serviceName}.${verb}`),
  )
