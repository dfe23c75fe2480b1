/**
 * Where JSON text first goes wrong, for error messages that say where: line and column (from
 * 1, in UTF-16 code units) and what stands there. Called only once `JSON.parse` has refused the
 * text, so it need not be fast; iterative, so no nesting can overflow the stack.
 */
export interface JsonErrorPlace {
  line: number
  column: number
  /** What was found there, quoted, or `the end of the body`. */
  found: string
}

const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y
// JSON strings hold no raw control characters: they are exactly what this class leaves out.
// eslint-disable-next-line no-control-regex
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y
const SPACE = /[ \t\n\r]*/y

export function locateJsonError(text: string): JsonErrorPlace | undefined {
  let at = 0
  // What each open container expects next, innermost last.
  const open: Array<'array' | 'object'> = []
  let expect: 'value' | 'key' | 'after' | 'first-value' | 'first-key' = 'value'

  const skipSpace = () => {
    SPACE.lastIndex = at
    SPACE.exec(text)
    at = SPACE.lastIndex
  }
  const match = (pattern: RegExp) => {
    pattern.lastIndex = at
    if (!pattern.test(text)) return false
    at = pattern.lastIndex
    return true
  }
  const fail = () => placeOf(text, at)

  for (;;) {
    skipSpace()
    const char = text[at]
    if (expect === 'after') {
      const inner = open.at(-1)
      if (inner === undefined) return at < text.length ? fail() : undefined
      if (char === ',') {
        at++
        expect = inner === 'array' ? 'value' : 'key'
      } else if ((char === ']' && inner === 'array') || (char === '}' && inner === 'object')) {
        at++
        open.pop()
      } else return fail()
      continue
    }
    if (expect === 'key' || expect === 'first-key') {
      if (char === '}' && expect === 'first-key') {
        at++
        open.pop()
        expect = 'after'
        continue
      }
      if (!match(STRING)) return fail()
      skipSpace()
      if (text[at] !== ':') return fail()
      at++
      expect = 'value'
      continue
    }
    // A value.
    if (char === ']' && expect === 'first-value') {
      at++
      open.pop()
      expect = 'after'
    } else if (char === '[') {
      at++
      open.push('array')
      expect = 'first-value'
    } else if (char === '{') {
      at++
      open.push('object')
      expect = 'first-key'
    } else if (
      match(STRING) ||
      match(NUMBER) ||
      ['true', 'false', 'null'].some((word) => text.startsWith(word, at) && (at += word.length))
    ) {
      expect = 'after'
    } else return fail()
  }
}

function placeOf(text: string, offset: number): JsonErrorPlace {
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  const column = offset - (before.lastIndexOf('\n') + 1) + 1
  const found =
    offset >= text.length ? 'the end of the body' : JSON.stringify(text.slice(offset, offset + 12))
  return { line, column, found }
}
