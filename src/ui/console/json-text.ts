import type { Json } from '../../engine'
import { checkJson } from '../shared/json-text'

/**
 * Values typed in the console: JSON, or plain text where a field takes a string. When JSON does
 * not parse, the message says where (line and column) and what was expected there.
 */

/** How a field's text becomes a value: parsed as JSON, or taken as it is. */
export type FieldMode = 'json' | 'text'

export type ParsedText = { ok: true; value: Json } | { ok: false; message: string }

/**
 * A field's value: `undefined` when it is left empty (nothing is sent). `asText` marks text a
 * field that may be text took as it is, because it is not JSON.
 */
export type ParsedField =
  { ok: true; value: Json | undefined; asText?: true } | { ok: false; message: string }

export function parseJsonText(text: string): ParsedText {
  const check = checkJson(text)
  return check.ok ? check : { ok: false, message: `not valid JSON (${lowerFirst(check.message)})` }
}

/**
 * Empty is no value; plain text is sent as it is; otherwise the text is read as JSON. Where the
 * field may be text (`textAllowed`: a string, type any, a procedure's input), text that is not
 * JSON is sent as the text it is, as a person means `bob/1`, rather than refused.
 */
export function parseField(text: string, mode: FieldMode, textAllowed = false): ParsedField {
  if (mode === 'text') return { ok: true, value: text === '' ? undefined : text }
  if (text.trim() === '') return { ok: true, value: undefined }
  const parsed = parseJsonText(text)
  if (!parsed.ok && textAllowed) return { ok: true, value: text, asText: true }
  return parsed
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1)
