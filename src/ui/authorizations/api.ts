import type { ExchangeRecord, TokenReport } from '../../engine'
import { control } from '../shared/control'

/** A stored procedure, as `GET /_account/procedures` lists it (only what this view reads). */
export interface ProcedureInfo {
  name: string
}

export interface ExchangePage {
  capacity: number
  /** Newest first. */
  exchanges: ExchangeRecord[]
}

export const listProcedures = (baseUrl: string) =>
  control<ProcedureInfo[]>(baseUrl, 'GET', 'procedures')

/** The exchanges the engine logged after the one with id `after`, newest first. */
export const listExchanges = (baseUrl: string, after: number) =>
  control<ExchangePage>(baseUrl, 'GET', `exchanges?after=${after}`)

export const inspectToken = (baseUrl: string, token: string) =>
  control<TokenReport>(baseUrl, 'POST', 'inspect', { token })
