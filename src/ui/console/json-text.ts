import type { Json } from '../../engine'

/**
 * Values typed in the console: JSON, or plain text where a field takes a string. When JSON does
 * not parse, the message says where (line and column) and what stands there, as the engine's
 * own errors do.
 */

/** How a field's text becomes a value: parsed as JSON, or taken as it is. */
export type FieldMode = 'json' | 'text'

export type ParsedText = { ok: true; value: Json } | { ok: false; message: string }

/** A field's value: `undefined` when it is left empty (nothing is sent). */
export type ParsedField = { ok: true; value: Json | undefined } | { ok: false; message: string }

export function parseJsonText(text: string): ParsedText {
  try {
    return { ok: true, value: JSON.parse(text) as Json }
  } catch (error) {
    return { ok: false, message: jsonErrorMessage(text, error) }
  }
}

/** Empty is no value; plain text is sent as it is; otherwise the text must be JSON. */
export function parseField(text: string, mode: FieldMode): ParsedField {
  if (mode === 'text') return { ok: true, value: text === '' ? undefined : text }
  if (text.trim() === '') return { ok: true, value: undefined }
  return parseJsonText(text)
}

/** Why `text` is not JSON, and where: `unexpected "h" at line 1, column 1`. */
export function jsonErrorMessage(text: string, error?: unknown): string {
  let place: JsonErrorPlace | undefined
  try {
    place = locateJsonError(text)
  } catch {
    // Nesting too deep to walk: the parser's own words will do.
  }
  if (place)
    return `not valid JSON: unexpected ${place.found} at line ${place.line}, column ${place.column}`
  return `not valid JSON: ${error instanceof Error ? error.message : String(error)}`
}

export interface JsonErrorPlace {
  /** From 1. */
  line: number
  /** From 1, in UTF-16 code units. */
  column: number
  /** What stands there, quoted, or `the end of the text`. */
  found: string
}

const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y
// JSON strings hold no raw control characters: they are exactly what this class leaves out.
// eslint-disable-next-line no-control-regex
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y

class Mistake {
  constructor(readonly at: number) {}
}

/** Where JSON text first goes wrong, or `undefined` when it is valid JSON. */
export function locateJsonError(text: string): JsonErrorPlace | undefined {
  let at = 0
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at]!)) at++
  }
  const expectChar = (char: string) => {
    space()
    if (text[at] !== char) throw new Mistake(at)
    at++
  }
  const sticky = (pattern: RegExp) => {
    pattern.lastIndex = at
    if (!pattern.test(text)) throw new Mistake(at)
    at = pattern.lastIndex
  }
  /** The items of an array or the members of an object, up to `close`. */
  const items = (close: string, item: () => void) => {
    space()
    if (text[at] === close) return void at++
    for (;;) {
      item()
      space()
      if (text[at] === ',') at++
      else return expectChar(close)
    }
  }
  const value = (): void => {
    space()
    const char = text[at]
    if (char === '[') {
      at++
      return items(']', value)
    }
    if (char === '{') {
      at++
      return items('}', () => {
        space()
        sticky(STRING)
        expectChar(':')
        value()
      })
    }
    if (char === '"') return sticky(STRING)
    const word = ['true', 'false', 'null'].find((w) => text.startsWith(w, at))
    if (word) at += word.length
    else sticky(NUMBER)
  }
  try {
    value()
    space()
    if (at < text.length) throw new Mistake(at)
    return undefined
  } catch (error) {
    if (error instanceof Mistake) return placeOf(text, error.at)
    throw error
  }
}

function placeOf(text: string, offset: number): JsonErrorPlace {
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  const column = offset - (before.lastIndexOf('\n') + 1) + 1
  const found =
    offset >= text.length ? 'the end of the text' : JSON.stringify(text.slice(offset, offset + 12))
  return { line, column, found }
}
