import { RbSyntaxError, type Position } from './syntax-error'

/**
 * The tokens of the composer language, a subset of Ruby's syntax. Newlines are tokens: they
 * end statements, and the parser skips them where Ruby lets an expression go on (after an
 * operator, a comma or an opening bracket, before a leading `.`).
 */
export type TokenKind =
  | 'identifier'
  /** `name:` in arguments and hashes (Ruby's label). */
  | 'label'
  | 'constant'
  | 'keyword'
  | 'string'
  | 'symbol'
  | 'integer'
  | 'float'
  | 'punct'
  | 'newline'
  | 'end'

export interface Token {
  kind: TokenKind
  /** The source text of the token (a string's quotes included). */
  text: string
  /** A string's or symbol's text, a label's or identifier's name, a number's value. */
  value: string | number
  start: Position
  end: Position
  /** Whitespace or a comment stands right before it on its line. */
  spaced: boolean
}

/** Ruby's reserved words: `true`, `false` and `nil` are values, the others are outside the language. */
export const KEYWORDS = new Set([
  'true',
  'false',
  'nil',
  'alias',
  'and',
  'begin',
  'BEGIN',
  'break',
  'case',
  'class',
  'def',
  'defined?',
  'do',
  'else',
  'elsif',
  'end',
  'END',
  'ensure',
  'for',
  'if',
  'in',
  'module',
  'next',
  'not',
  'or',
  'redo',
  'rescue',
  'retry',
  'return',
  'self',
  'super',
  'then',
  'undef',
  'unless',
  'until',
  'when',
  'while',
  'yield',
  '__FILE__',
  '__LINE__',
  '__ENCODING__',
])

/** Two-character punctuation first, then one character. */
const PAIRS = new Set(['=>', '>>'])
const SINGLES = new Set(['(', ')', '[', ']', '{', '}', ',', '.', '=', '|', '-', ';', ':'])

/** Longer than this, an integer is no longer exact in a double. */
const MAX_INTEGER = Number.MAX_SAFE_INTEGER

const isStart = (c: string) => (c >= 'a' && c <= 'z') || c === '_'
const isConstantStart = (c: string) => c >= 'A' && c <= 'Z'
const isDigit = (c: string) => c >= '0' && c <= '9'
const isWord = (c: string) => isStart(c) || isConstantStart(c) || isDigit(c)

/** Reads tokens one at a time, as the parser asks for them. */
export class Lexer {
  private index = 0
  private line = 1
  private column = 1
  private spaced = false
  private last: Token | undefined

  constructor(private readonly source: string) {}

  /** The next token; `end` once the source is read, and again after that. */
  next(): Token {
    for (;;) {
      this.skipSpace()
      const start = this.here()
      const c = this.peek()
      if (c === '') return this.push('end', '', '', start)
      if (c === '\n') {
        this.advance()
        this.spaced = false
        // Several line ends (and comment lines) make one separator.
        if (this.last?.kind === 'newline') continue
        return this.push('newline', '\n', '\n', start)
      }
      const token = this.token(c, start)
      this.spaced = false
      return token
    }
  }

  private token(c: string, start: Position): Token {
    if (c === '"' || c === "'") return this.string(c, start)
    if (isDigit(c)) return this.number(start)
    if (c === ':' && this.peek(1) === '"') return this.quotedSymbol(start)
    if (c === ':' && this.peek(1) !== ':' && /[A-Za-z_]/.test(this.peek(1))) {
      return this.symbol(start)
    }
    if (isStart(c) || isConstantStart(c)) return this.word(start)
    const pair = this.source.slice(this.index, this.index + 2)
    if (PAIRS.has(pair)) {
      this.advance()
      this.advance()
      return this.push('punct', pair, pair, start)
    }
    if (SINGLES.has(c) && !(c === ':' && this.peek(1) === ':')) {
      this.advance()
      return this.push('punct', c, c, start)
    }
    throw new RbSyntaxError(start, unexpected(c, this.source, this.index))
  }

  private word(start: Position): Token {
    const from = this.index
    while (isWord(this.peek())) this.advance()
    const name = this.source.slice(from, this.index)
    // `name:` is a label (a keyword argument or a hash key), unless `::` follows.
    if (this.peek() === ':' && this.peek(1) !== ':' && !isConstantStart(name[0]!)) {
      this.advance()
      return this.push('label', `${name}:`, name, start)
    }
    if (this.peek() === '?' || this.peek() === '!') {
      throw new RbSyntaxError(
        this.here(),
        `expected a name of letters, digits and \`_', found \`${name}${this.peek()}': the language's names end without \`?' or \`!'`,
      )
    }
    const kind = isConstantStart(name[0]!)
      ? 'constant'
      : KEYWORDS.has(name)
        ? 'keyword'
        : 'identifier'
    return this.push(kind, name, name, start)
  }

  private symbol(start: Position): Token {
    this.advance()
    const from = this.index
    while (isWord(this.peek())) this.advance()
    const name = this.source.slice(from, this.index)
    return this.push('symbol', `:${name}`, name, start)
  }

  private quotedSymbol(start: Position): Token {
    this.advance()
    const text = this.doubleQuoted(start)
    return this.push('symbol', this.source.slice(start.offset, this.index), text, start)
  }

  private number(start: Position): Token {
    const from = this.index
    const digits = () => {
      while (isDigit(this.peek()) || (this.peek() === '_' && isDigit(this.peek(1)))) this.advance()
    }
    if (this.peek() === '0' && /[xXbBoOdD]/.test(this.peek(1))) {
      throw new RbSyntaxError(
        start,
        'expected a decimal number: hexadecimal, octal and binary numbers are outside the language',
      )
    }
    digits()
    let float = false
    if (this.peek() === '.' && isDigit(this.peek(1))) {
      float = true
      this.advance()
      digits()
    }
    if (
      /[eE]/.test(this.peek()) &&
      (isDigit(this.peek(1)) || (/[-+]/.test(this.peek(1)) && isDigit(this.peek(2))))
    ) {
      float = true
      this.advance()
      if (/[-+]/.test(this.peek())) this.advance()
      digits()
    }
    if (isWord(this.peek())) {
      throw new RbSyntaxError(this.here(), `expected a number to end here, found \`${this.peek()}'`)
    }
    const text = this.source.slice(from, this.index)
    const value = Number(text.replaceAll('_', ''))
    if (!float && !Number.isSafeInteger(value)) {
      throw new RbSyntaxError(
        start,
        `expected an integer from -${MAX_INTEGER} to ${MAX_INTEGER}, found ${text}`,
      )
    }
    if (float && !Number.isFinite(value)) {
      throw new RbSyntaxError(start, `expected a number a double can hold, found ${text}`)
    }
    return this.push(float ? 'float' : 'integer', text, value, start)
  }

  private string(quote: string, start: Position): Token {
    const text = quote === '"' ? this.doubleQuoted(start) : this.singleQuoted(start)
    return this.push('string', this.source.slice(start.offset, this.index), text, start)
  }

  /** From an opening `"` (at the cursor) to its closing one: the text, escapes read. */
  private doubleQuoted(start: Position): string {
    this.advance()
    let text = ''
    for (;;) {
      const c = this.peek()
      if (c === '') throw unterminated(start, '"')
      if (c === '"') {
        this.advance()
        return text
      }
      if (c === '#' && /[{@$]/.test(this.peek(1))) {
        throw new RbSyntaxError(
          this.here(),
          `expected text, found \`#${this.peek(1)}': interpolation runs code, which the language never does; write \\# for a plain #`,
        )
      }
      if (c === '\\') {
        text += this.escape()
        continue
      }
      text += this.advance()
    }
  }

  private escape(): string {
    const at = this.here()
    this.advance()
    const c = this.advance()
    const simple: Record<string, string> = {
      n: '\n',
      t: '\t',
      r: '\r',
      s: ' ',
      e: '\u001b',
      a: '\u0007',
      b: '\b',
      f: '\f',
      v: '\v',
    }
    if (c === '') throw unterminated(at, '"')
    if (c in simple) return simple[c]!
    if (c === 'u') return this.unicodeEscape(at)
    if (/[0-7]/.test(c)) {
      // Octal, as in C: up to three digits.
      let digits = c
      while (digits.length < 3 && /[0-7]/.test(this.peek())) digits += this.advance()
      return ascii(parseInt(digits, 8), at)
    }
    if (c === 'x') {
      let digits = ''
      while (digits.length < 2 && /[0-9a-fA-F]/.test(this.peek())) digits += this.advance()
      if (digits === '') throw new RbSyntaxError(at, 'expected a hex escape such as \\x41')
      return ascii(parseInt(digits, 16), at)
    }
    if (c === '\n') return ''
    // Ruby reads any other escaped character as itself: \" \\ \# \'
    return c
  }

  private unicodeEscape(at: Position): string {
    const bad = () =>
      new RbSyntaxError(at, 'expected a unicode escape such as \\u00e9 or \\u{1F600}')
    if (this.peek() === '{') {
      this.advance()
      let out = ''
      for (;;) {
        while (this.peek() === ' ') this.advance()
        if (this.peek() === '}') {
          this.advance()
          if (out === '') throw bad()
          return out
        }
        let hex = ''
        while (/[0-9a-fA-F]/.test(this.peek())) hex += this.advance()
        const code = parseInt(hex, 16)
        if (hex === '' || hex.length > 6 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
          throw bad()
        }
        out += String.fromCodePoint(code)
      }
    }
    let hex = ''
    for (let i = 0; i < 4 && /[0-9a-fA-F]/.test(this.peek()); i++) hex += this.advance()
    const code = parseInt(hex, 16)
    if (hex.length !== 4 || (code >= 0xd800 && code <= 0xdfff)) throw bad()
    return String.fromCodePoint(code)
  }

  private singleQuoted(start: Position): string {
    this.advance()
    let text = ''
    for (;;) {
      const c = this.peek()
      if (c === '') throw unterminated(start, "'")
      if (c === "'") {
        this.advance()
        return text
      }
      if (c === '\\' && (this.peek(1) === "'" || this.peek(1) === '\\')) {
        this.advance()
        text += this.advance()
        continue
      }
      text += this.advance()
    }
  }

  private skipSpace(): void {
    for (;;) {
      const c = this.peek()
      if (c === ' ' || c === '\t' || c === '\r') {
        this.advance()
        this.spaced = true
      } else if (c === '\\' && this.peek(1) === '\n') {
        // A backslash at the end of a line joins the next one to it.
        this.advance()
        this.advance()
        this.spaced = true
      } else if (c === '#') {
        while (this.peek() !== '\n' && this.peek() !== '') this.advance()
        this.spaced = true
      } else {
        return
      }
    }
  }

  private here(): Position {
    return { line: this.line, column: this.column, offset: this.index }
  }

  /** The character (code point) `ahead` characters on, or '' at the end. */
  private peek(ahead = 0): string {
    let index = this.index
    for (let i = 0; i < ahead && index < this.source.length; i++) {
      index += (this.source.codePointAt(index) ?? 0) > 0xffff ? 2 : 1
    }
    const unit = this.source.charCodeAt(index)
    if (Number.isNaN(unit)) return ''
    // Most characters are one UTF-16 unit: only a surrogate needs the code point.
    if (unit < 0xd800 || unit > 0xdfff) return this.source[index]!
    return String.fromCodePoint(this.source.codePointAt(index)!)
  }

  private advance(): string {
    const c = this.peek()
    this.index += c.length
    if (c === '\n') {
      this.line++
      this.column = 1
    } else if (c !== '') {
      this.column++
    }
    return c
  }

  private push(kind: TokenKind, text: string, value: string | number, start: Position): Token {
    this.last = { kind, text, value, start, end: this.here(), spaced: this.spaced }
    return this.last
  }
}

/** A byte escape: in Ruby one above 0x7f is a raw byte, not a character; `\u` writes those. */
function ascii(code: number, at: Position): string {
  if (code > 0x7f) {
    throw new RbSyntaxError(
      at,
      'expected a byte escape up to \\x7F; write characters beyond ASCII as \\u escapes',
    )
  }
  return String.fromCharCode(code)
}

function unterminated(start: Position, quote: string): RbSyntaxError {
  return new RbSyntaxError(
    start,
    `expected a closing \`${quote}': the text that starts here never ends`,
  )
}

/** What an unknown character is, said so that the user sees what to write instead. */
function unexpected(c: string, source: string, index: number): string {
  if (c === '@') return "expected a name, found `@': instance variables are outside the language"
  if (c === '$') return "expected a name, found `$': global variables are outside the language"
  if (source.startsWith('::', index))
    return "expected a name, found `::': constants are outside the language"
  if (source.startsWith('<<', index))
    return "expected an expression, found `<<': heredocs and appends are outside the language"
  if (c === '%')
    return 'expected an expression, found `%\': %-literals are outside the language; write "…" or […]'
  const shown = /[\p{L}\p{N}\p{P}\p{S}]/u.test(c)
    ? `\`${c}'`
    : `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
  return `expected an expression, found ${shown}`
}
