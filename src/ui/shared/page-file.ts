import { Ajv } from 'ajv'
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

const nullable = (type: string) => ({ type: [type, 'null'] })
const body = {
  oneOf: [
    { type: 'null' },
    {
      type: 'object',
      required: ['encoding', 'data', 'bytes', 'truncated'],
      properties: {
        encoding: { enum: ['text', 'base64'] },
        data: { type: 'string' },
        bytes: { type: 'number' },
        truncated: { type: 'boolean' },
      },
    },
  ],
}
const headers = {
  type: 'array',
  items: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2 },
}

const exchangeSchema = {
  type: 'object',
  required: ['id', 'startedAt', 'at', 'durationMs', 'request', 'response', 'trace'],
  properties: {
    id: { type: 'integer' },
    startedAt: { type: 'number' },
    at: { type: 'number' },
    durationMs: { type: 'number' },
    request: {
      type: 'object',
      required: ['method', 'url', 'headers', 'body'],
      properties: { method: { type: 'string' }, url: { type: 'string' }, headers, body },
    },
    response: {
      type: 'object',
      required: ['status', 'headers', 'body'],
      properties: { status: { type: 'integer' }, headers, body },
    },
    trace: {
      type: 'object',
      required: ['endpoint', 'credential', 'calls', 'droppedCalls', 'outcome'],
      properties: {
        endpoint: nullable('string'),
        credential: {
          oneOf: [
            { type: 'null' },
            {
              type: 'object',
              required: ['kind', 'decision', 'explanation'],
              properties: {
                kind: { enum: ['none', 'secret', 'authorization', 'unknown'] },
                decision: { enum: ['accepted', 'refused'] },
                reason: nullable('string'),
                secretId: nullable('string'),
                abilities: { type: ['array', 'null'], items: { type: 'string' } },
                insecure: nullable('boolean'),
                createdAt: nullable('number'),
                expiresAt: nullable('number'),
                secretExpiresAt: nullable('number'),
                explanation: { type: 'string' },
              },
            },
          ],
        },
        calls: {
          type: 'array',
          items: {
            type: 'object',
            required: ['endpoint', 'depth', 'decision', 'explanation'],
            properties: {
              endpoint: { type: 'string' },
              depth: { type: 'integer', minimum: 0 },
              decision: { enum: ['allowed', 'refused', 'failed', 'aborted'] },
              grant: { enum: ['secret', 'ability', 'procedure', null] },
              ability: nullable('string'),
              code: nullable('string'),
              status: nullable('integer'),
              explanation: { type: 'string' },
              warnings: { type: 'array', items: { type: 'string' } },
            },
          },
        },
        droppedCalls: { type: 'integer' },
        outcome: {
          type: 'object',
          required: ['status'],
          properties: {
            status: { type: 'integer' },
            code: nullable('string'),
            message: nullable('string'),
          },
        },
      },
    },
  },
}

const authorizationSchema = {
  type: 'object',
  required: ['token', 'savedAt'],
  properties: { token: { type: 'string', minLength: 1 }, savedAt: { type: 'number' } },
}

const ajv = new Ajv()
const isExchange = ajv.compile<ExchangeRecord>(exchangeSchema)
const isAuthorization = ajv.compile<SavedAuthorization>(authorizationSchema)

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
