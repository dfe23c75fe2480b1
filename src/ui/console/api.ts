import type { ExchangeRecord } from '../../engine'
import { control } from '../shared/control'
import type { HttpPlan } from '../shared/wire'

/** A stored procedure, as `GET /_account/procedures` lists it (called at `lib.<name>`). */
export interface ProcedureInfo {
  name: string
}

export const listProcedures = (baseUrl: string) =>
  control<ProcedureInfo[]>(baseUrl, 'GET', 'procedures')

interface ExchangeList {
  capacity: number
  exchanges: ExchangeRecord[]
}

/** The newest exchange's id (0 when none), or `null` when the engine keeps no log. */
export async function newestExchangeId(baseUrl: string, after = 0): Promise<number | null> {
  const { capacity, exchanges } = await control<ExchangeList>(
    baseUrl,
    'GET',
    `exchanges?after=${after}`,
  )
  return capacity === 0 ? null : (exchanges[0]?.id ?? after)
}

/**
 * The exchange a plan became: the newest one after `after` to the same URL (other tabs and
 * views may have sent requests meanwhile). Also answers the newest id seen, for the next time.
 */
export async function findExchange(
  baseUrl: string,
  after: number,
  plan: HttpPlan,
): Promise<{ id: number | undefined; newest: number }> {
  const { exchanges } = await control<ExchangeList>(baseUrl, 'GET', `exchanges?after=${after}`)
  const target = new URL(plan.url)
  const mine = exchanges.find((record) => {
    const url = new URL(record.request.url)
    return record.request.method === plan.method && url.href === target.href
  })
  return { id: mine?.id, newest: exchanges[0]?.id ?? after }
}
