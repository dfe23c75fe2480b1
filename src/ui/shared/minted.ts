import type { ExchangeRecord } from '../../engine'
import { tokenOf } from './token-answer'
import { loggedBytes } from './wire'
import { mintedAuthorization } from '../../client/exchange'

/** The authorizations successful `auth.create` exchanges answered with, oldest first. */
export function mintedIn(records: readonly ExchangeRecord[]): string[] {
  const tokens: string[] = []
  for (const record of [...records].sort((a, b) => a.id - b.id)) {
    const { response, trace } = record
    if (!mintedAuthorization(trace.endpoint, response.status)) continue
    const body = response.body
    if (!body || body.truncated) continue
    const bytes = loggedBytes(body)
    const type = response.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1]
    const token = tokenOf(bytes, type ?? '')
    if (token) tokens.push(token)
  }
  return tokens
}

/** Whether any of the records changed the stored procedures (`<service>.create` and the like). */
export const changesProcedures = (records: readonly ExchangeRecord[], serviceName: string) =>
  records.some(
    ({ trace, response }) =>
      response.status === 200 &&
      trace.endpoint !== null &&
      ['create', 'update', 'delete'].some((verb) => trace.endpoint === `${serviceName}.${verb}`),
  )
