import type { Json } from '../../engine'

/** JSON typed by a person: the value, or where and why it does not parse. */
export type JsonCheck =
  | { ok: true; value: Json }
  | {
      ok: false
      /** `Line 2, column 7: expected "," or "}", found "x"`: ready to show. */
      message: string
      /** From 1, in UTF-16 code units, as an editor counts. */
      line: number
      column: number
    }

/**
 * Reads JSON a person is typing. `JSON.parse` decides; when it refuses, a small scanner finds
 * the first place that goes wrong and what was expected there (engines word their messages
 * differently, and V8's no longer say where).
 */
export function checkJson(text: string): JsonCheck {
  try {
    return { ok: true, value: JSON.parse(text) as Json }
  } catch (error) {
    const stop = locate(text)
    const at = stop?.at ?? 0
    const { line, column } = placeOf(text, at)
    const found = at < text.length ? JSON.stringify(text.slice(at, at + 1)) : 'the end'
    const why = stop
      ? `expected ${stop.expected}, found ${found}`
      : error instanceof Error
        ? error.message
        : String(error)
    return { ok: false, message: `Line ${line}, column ${column}: ${why}`, line, column }
  }
}

/** Line and column (from 1) of a code-unit offset. */
export function placeOf(text: string, at: number): { line: number; column: number } {
  const before = text.slice(0, at).split('\n')
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 }
}

class Stop {
  constructor(
    readonly at: number,
    readonly expected: string,
  ) {}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y

/** Where `text` first stops being JSON, and what would have been right there. */
function locate(text: string): Stop | undefined {
  let at = 0
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at]!)) at++
  }
  const expect = (char: string) => {
    space()
    if (text[at] !== char) throw new Stop(at, `"${char}"`)
    at++
  }

  function string() {
    at++
    for (;;) {
      const char = text[at]
      if (char === undefined) throw new Stop(at, 'a closing quote')
      if (char === '"') return void at++
      if (char === '\\') {
        ESCAPE.lastIndex = at
        if (!ESCAPE.test(text)) throw new Stop(at, 'an escape such as \\n, \\" or \\u00e9')
        at = ESCAPE.lastIndex
      } else if (char < ' ') {
        throw new Stop(at, 'no line break or control character inside a string (write \\n)')
      } else at++
    }
  }

  function members(close: '}' | ']') {
    space()
    if (text[at] === close) return void at++
    for (;;) {
      if (close === '}') {
        space()
        if (text[at] !== '"') throw new Stop(at, 'a key in double quotes')
        string()
        expect(':')
      }
      value()
      space()
      if (text[at] === ',') at++
      else if (text[at] === close) return void at++
      else throw new Stop(at, `"," or "${close}"`)
    }
  }

  function value() {
    space()
    const char = text[at]
    if (char === '{' || char === '[') {
      at++
      return members(char === '{' ? '}' : ']')
    }
    if (char === '"') return string()
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, at)) return void (at += word.length)
    }
    NUMBER.lastIndex = at
    if (NUMBER.test(text)) return void (at = NUMBER.lastIndex)
    throw new Stop(at, 'a value (an object, array, "string", number, true, false or null)')
  }

  try {
    value()
    space()
    if (at < text.length) throw new Stop(at, 'nothing more after the value')
    return undefined
  } catch (error) {
    if (error instanceof Stop) return error
    // Nesting too deep for the scanner: JSON.parse's own message stands.
    return undefined
  }
}
