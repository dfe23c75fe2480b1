/**
 * What an answer says, read as the wire wrote it: the value it carries, or the engine's error
 * message.
 */
import type { ReadableBody } from './readable-body'

/** What an answer says: the value it carries, or the engine's error message. */
export interface Said {
  /** Present when the answer carries a value (`[["<<", value]]`); it may be `null`. */
  value?: unknown
  error?: string
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const messageIn = (value: unknown): string | undefined =>
  isRecord(value) && typeof value.message === 'string' ? value.message : undefined

/** Whether a content type is one of the tuple formats (`vnd.<service>+json` or `+msgpack`). */
export const isTupleType = (contentType: string): boolean =>
  /^application\/vnd\.[^+;]+\+(json|msgpack)/i.test(contentType)

/**
 * Reads an answer as the wire wrote it: in the tuple formats, `[["<<", value]]` or
 * `[["!!", {"message": …}]]`; in JSON, `{"error": {"message": …}}` when it `failed`. Anything
 * else says nothing here, and the caller shows the body itself.
 */
export function saidBy(body: ReadableBody, contentType: string, failed: boolean): Said {
  const { value } = body
  if (isTupleType(contentType) && Array.isArray(value)) {
    for (const tuple of value) {
      if (!Array.isArray(tuple)) continue
      if (tuple[0] === '<<') return { value: tuple[1] }
      const error = tuple[0] === '!!' ? messageIn(tuple[1]) : undefined
      if (error !== undefined) return { error }
    }
    return {}
  }
  const error = failed && isRecord(value) ? messageIn(value.error) : undefined
  return error === undefined ? {} : { error }
}
