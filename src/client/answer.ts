/**
 * What an answer says, read in one place for every reader outside the engine: the playground's
 * panes, conformance and its contracts, shadow mode. Browser-safe.
 */
import { decode } from '@msgpack/msgpack'
import { formatOfMediaType } from '../engine/wire/formats'

/** What an answer says: the value it carries, or the service's error message. */
export interface Said {
  /** Present when the answer carries a value (`[["<<", value]]`); it may be `null`. */
  value?: unknown
  error?: string
}

/** An answer read whole: what it says, and whether it came as `text/plain`. */
export interface Decoded {
  ok: boolean
  value?: unknown
  message?: string
  /** A text/plain answer: a value that is not a string arrives as its JSON text. */
  text?: boolean
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const messageIn = (value: unknown): string | undefined =>
  isRecord(value) && typeof value.message === 'string' ? value.message : undefined

/** Whether a content type is one of the tuple formats (`vnd.<service>+json` or `+msgpack`). */
export function isTupleType(contentType: string | null | undefined): boolean {
  const format = formatOfMediaType(contentType)
  return format === 'tuples' || format === 'msgpack'
}

/**
 * What a decoded body says, as the wire wrote it: in the tuple formats, `[["<<", value]]` or
 * `[["!!", {"message": …}]]`; in JSON, `{"error": {"message": …}}` when it `failed`. Anything
 * else says nothing here, and the caller shows the body itself.
 */
export function saidIn(value: unknown, contentType: string, failed: boolean): Said {
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

/**
 * An answer's value or error message, read the way its content type says; it throws on a body
 * its format cannot hold, or a tuple answer with neither a value nor an error in it. A JSON
 * answer is refused only when it failed (a status other than 200) and says an error; a text
 * answer is its text either way.
 */
export function readAnswer(
  bytes: Uint8Array,
  contentType: string | undefined,
  status: number,
): Decoded {
  const format = formatOfMediaType(contentType)
  const failed = status !== 200
  const text = () => new TextDecoder().decode(bytes)
  if (format === 'msgpack' || format === 'tuples') {
    const value: unknown = format === 'msgpack' ? decode(bytes) : JSON.parse(text())
    const said = saidIn(value, contentType!, failed)
    if ('value' in said) return { ok: true, value: said.value }
    if (said.error !== undefined) return { ok: false, message: said.error }
    throw new Error('a tuple answer with neither a value ("<<") nor an error ("!!") in it')
  }
  if (format === 'json') {
    const value: unknown = JSON.parse(text())
    const error = saidIn(value, contentType!, failed).error
    return error === undefined ? { ok: true, value } : { ok: false, message: error }
  }
  return failed
    ? { ok: false, message: text(), text: true }
    : { ok: true, value: text(), text: true }
}
