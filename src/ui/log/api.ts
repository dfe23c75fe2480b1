import type { ExchangeRecord } from '../../engine'
import { control } from '../shared/control'

/** A page of the engine's exchange log: its capacity, and the records asked for, newest first. */
export interface ExchangePage {
  capacity: number
  exchanges: ExchangeRecord[]
}

/** The exchanges the engine keeps, newest first; only those with an id above `after` when given. */
export const listExchanges = (baseUrl: string, after?: number) =>
  control<ExchangePage>(baseUrl, 'GET', after ? `exchanges?after=${after}` : 'exchanges')

/** Empties the engine's exchange log. */
export const clearExchanges = (baseUrl: string) =>
  control<{ ok: true }>(baseUrl, 'POST', 'exchanges/clear', {})
