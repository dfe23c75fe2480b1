import { Ajv } from 'ajv'
import accountSchema from '../../../schemas/account.json' with { type: 'json' }
import type { ExchangeRecord } from '../../engine'
import type { SavedAuthorization } from './page-store'

/**
 * What the page adds to the account export: the authorizations made in it and this tab's
 * exchange log, under `playground` beside the engine's own fields (which the engine's import,
 * and `serve --import`, read and leave the rest). An import reads them back only as far as
 * they have the shape the views show: an entry that does not is left out and counted, never
 * shown broken.
 */
export interface PagePart {
  authorizations: SavedAuthorization[]
  /** Oldest first. */
  exchanges: ExchangeRecord[]
}

// The entries' shapes are the published schema's (schemas/account.json): one home for them.
const ajv = new Ajv()
ajv.addSchema(accountSchema)
const definition = <T>(name: string) =>
  ajv.getSchema<T>(`${accountSchema.$id}#/definitions/${name}`)!
const isExchange = definition<ExchangeRecord>('exchange')
const isAuthorization = definition<SavedAuthorization>('savedAuthorization')

/** The page's part of an export, for `exported` (the engine's snapshot). */
export const withPagePart = (exported: object, part: PagePart) => ({
  ...exported,
  playground: part,
})

/**
 * The page's part of an imported file, as far as it can be read: `undefined` when the file has
 * none (an export of `serve`, say); `skipped` counts the entries left out.
 */
export function readPagePart(file: unknown): (PagePart & { skipped: number }) | undefined {
  const part = (file as { playground?: unknown } | null)?.playground
  if (part === undefined) return undefined
  const { authorizations, exchanges } = (part ?? {}) as Record<string, unknown>
  const list = (value: unknown) => (Array.isArray(value) ? (value as unknown[]) : [])
  const readAuthorizations = list(authorizations).filter((item) => isAuthorization(item))
  const readExchanges = list(exchanges).filter((item) => isExchange(item))
  const skipped =
    list(authorizations).length -
    readAuthorizations.length +
    (list(exchanges).length - readExchanges.length)
  return {
    authorizations: readAuthorizations as SavedAuthorization[],
    exchanges: readExchanges as ExchangeRecord[],
    skipped,
  }
}
