import type {
  Arguments,
  Block,
  Expr,
  HashEntry,
  Keyword,
  PipeOperator,
  Program,
  Statement,
} from './ast'
import { Lexer, type Token } from './lexer'
import { finish, STEP_WORK, type Steps } from './steps'
import { RbSyntaxError } from './syntax-error'

/** Brackets, blocks and parentheses nest at most this deep. */
export const MAX_NESTING = 32

/**
 * One expression chains at most this many links (`.name`, `[…]`, `>>`, `|`, `.|`, `.>>`): as
 * many calls as one request may make.
 */
export const MAX_CHAIN = 10_000

/**
 * Parses a program of the composer language (Ruby syntax) by recursive descent:
 *
 * ```text
 * program    = statements EOF
 * statements = { separator } [ statement { separator { separator } statement } ] { separator }
 * statement  = IDENTIFIER "=" expression | expression
 * expression = postfix { ( ">>" | "|" | ".|" | ".>>" ) postfix }
 * postfix    = primary { "." NAME [ arguments ] [ block ] | "[" expression "]" [ block ] }
 * primary    = STRING | ["-"] NUMBER | SYMBOL | "true" | "false" | "nil"
 *            | "[" [ expression { "," expression } [ "," ] ] "]"
 *            | "{" [ entry { "," entry } [ "," ] ] "}"
 *            | "(" expression ")"
 *            | IDENTIFIER [ arguments ] [ block ]
 * arguments  = "(" [ argument { "," argument } [ "," ] ] ")"
 * argument   = LABEL expression | STRING ":" expression | ( SYMBOL | STRING ) "=>" expression
 *            | expression
 * entry      = the same keyed forms as argument
 * block      = "{" statements "}"
 * separator  = NEWLINE | ";"
 * ```
 *
 * Newlines end statements, except after an operator, a comma or an opening bracket, and
 * before a line that starts with `.` (a chain going on). A name assigned before is a local
 * variable; any other name starts a call. Throws `RbSyntaxError` with the line, the column and
 * what was expected. Recursion follows only nesting, held to `MAX_NESTING`; a chain is read in
 * a loop, held to `MAX_CHAIN` links.
 */
export function parse(source: string): Program {
  return finish(parsing(source))
}

/** `parse` in steps (see `steps.ts`): it stops every few hundred tokens. */
export function parsing(source: string): Steps<Program> {
  return new Parser(new Lexer(source)).program()
}

class Parser {
  private index = 0
  private depth = 0
  /** Tokens read when the parser last stopped for a step. */
  private stepped = 0
  private readonly scopes: Array<Set<string>> = [new Set()]

  /** Read as far as the parser looks: the first error in reading order is the one reported. */
  private readonly tokens: Token[] = []

  constructor(private readonly lexer: Lexer) {}

  private token(at: number): Token {
    while (this.tokens.length <= at && this.tokens.at(-1)?.kind !== 'end') {
      this.tokens.push(this.lexer.next())
    }
    return this.tokens[Math.min(at, this.tokens.length - 1)]!
  }

  *program(): Steps<Program> {
    const statements = yield* this.statements('end')
    return { statements }
  }

  /** Whether enough tokens were read since the last step to stop for another. */
  private due(): boolean {
    if (this.tokens.length - this.stepped < STEP_WORK) return false
    this.stepped = this.tokens.length
    return true
  }

  private *statements(closer: 'end' | '}', opened?: Token): Steps<Statement[]> {
    const out: Statement[] = []
    this.skipSeparators()
    while (!this.closes(closer)) {
      if (this.due()) yield
      if (opened && this.peek().kind === 'end') throw this.unclosed('}', 'block', opened)
      out.push(yield* this.statement())
      if (this.closes(closer)) break
      if (!this.isSeparator(this.peek())) {
        const close = closer === '}' ? ", or `}' to close the block" : ''
        throw this.expected(
          `a new line or \`;' after the statement${close}`,
          argumentHint(this.peek()),
        )
      }
      this.skipSeparators()
    }
    return out
  }

  private closes(closer: 'end' | '}'): boolean {
    const token = this.peek()
    return closer === 'end' ? token.kind === 'end' : token.kind === 'punct' && token.text === '}'
  }

  private *statement(): Steps<Statement> {
    const token = this.peek()
    if (token.kind === 'identifier' && this.isPunct(this.peek(1), '=')) {
      this.index += 2
      this.skipNewlines()
      // As in Ruby, the name is a variable from its own assignment on.
      this.scopes.at(-1)!.add(token.value as string)
      const value = yield* this.expression()
      return { kind: 'assign', name: token.value as string, value, at: token.start }
    }
    return { kind: 'expression', expr: yield* this.expression(), at: token.start }
  }

  private *expression(): Steps<Expr> {
    const chain = { links: 0 }
    let left = yield* this.postfix(chain)
    for (;;) {
      if (this.due()) yield
      const operator = this.pipeOperator()
      if (!operator) return left
      this.link(chain, operator.token)
      this.skipNewlines()
      const right = yield* this.postfix(chain)
      left = { kind: 'pipe', left, right, op: operator.op, at: operator.token.start }
    }
  }

  /** One more link of the expression's chain, refused past `MAX_CHAIN`. */
  private link(chain: { links: number }, at: Token): void {
    if (++chain.links > MAX_CHAIN) {
      throw new RbSyntaxError(
        at.start,
        `expected at most ${MAX_CHAIN} links in one chain of calls and compositions (\`.name', \`[…]', \`>>', \`|', \`.|'), found more: split it over variables`,
      )
    }
  }

  /** `>>` or `|` on the same line, or `.|` / `.>>` there or at the start of a next line. */
  private pipeOperator(): { op: PipeOperator; token: Token } | undefined {
    const token = this.peek()
    if (this.isPunct(token, '>>') || this.isPunct(token, '|')) {
      this.index++
      return { op: token.text as PipeOperator, token }
    }
    const dot = this.dotAhead()
    if (dot === undefined) return undefined
    const after = this.token(dot + 1)
    if (!this.isPunct(after, '|') && !this.isPunct(after, '>>')) return undefined
    const start = this.token(dot)
    this.index = dot + 2
    return { op: `.${after.text}` as PipeOperator, token: start }
  }

  /** The index of a `.` at the cursor, or first on a next line (a chain going on). */
  private dotAhead(): number | undefined {
    let at = this.index
    while (this.token(at).kind === 'newline') at++
    return this.isPunct(this.token(at), '.') ? at : undefined
  }

  private *postfix(chain: { links: number }): Steps<Expr> {
    let expr = yield* this.primary()
    for (;;) {
      if (this.due()) yield
      const dot = this.dotAhead()
      if (dot !== undefined) {
        const after = this.token(dot + 1)
        if (this.isPunct(after, '|') || this.isPunct(after, '>>')) return expr
        this.index = dot + 1
        const name = this.peek()
        if (name.kind !== 'identifier' && name.kind !== 'keyword') {
          throw this.expected(
            "a name after `.'",
            name.kind === 'constant' ? "; the language's names start with a lowercase letter" : '',
          )
        }
        this.link(chain, name)
        this.index++
        const args = yield* this.arguments()
        const block = yield* this.block()
        expr = {
          kind: 'send',
          target: expr,
          name: name.value as string,
          ...(args ? { args } : {}),
          ...(block ? { block } : {}),
          at: name.start,
        }
        continue
      }
      const open = this.peek()
      if (this.isPunct(open, '[') && !open.spaced) {
        this.link(chain, open)
        this.index++
        this.enter()
        this.skipNewlines()
        const key = yield* this.expression()
        this.skipNewlines()
        this.expect(']', "`]' to close the lookup")
        this.depth--
        const block = yield* this.block()
        expr = { kind: 'index', target: expr, key, ...(block ? { block } : {}), at: open.start }
        continue
      }
      return expr
    }
  }

  private *primary(): Steps<Expr> {
    const token = this.peek()
    const at = token.start
    switch (token.kind) {
      case 'string':
        this.index++
        return { kind: 'string', value: token.value as string, at }
      case 'integer':
      case 'float':
        this.index++
        return { kind: token.kind, value: token.value as number, at }
      case 'symbol':
        this.index++
        return { kind: 'symbol', name: token.value as string, at }
      case 'keyword':
        return this.keyword(token)
      case 'identifier':
        return yield* this.name(token)
      case 'constant':
        throw this.expected(
          'an expression',
          ': constants are outside the language (it names calls and values, and runs nothing)',
        )
      case 'label':
        throw this.expected('an expression', "; `name: value' goes inside a call's parentheses")
      case 'punct':
        return yield* this.punctuated(token)
      default:
        throw this.expected('an expression')
    }
  }

  private keyword(token: Token): Expr {
    const at = token.start
    switch (token.value) {
      case 'true':
      case 'false':
        this.index++
        return { kind: 'boolean', value: token.value === 'true', at }
      case 'nil':
        this.index++
        return { kind: 'nil', at }
      case 'do':
        throw this.expected(
          'an expression',
          ": `do … end' blocks are outside the language; write the block in braces",
        )
      default:
        throw this.expected('an expression', `: \`${token.value}' is outside the language`)
    }
  }

  private *name(token: Token): Steps<Expr> {
    this.index++
    const name = token.value as string
    if (this.isVariable(name) && !this.isPunct(this.peek(), '(')) {
      return { kind: 'variable', name, at: token.start }
    }
    const args = yield* this.arguments()
    const block = yield* this.block()
    return {
      kind: 'name',
      name,
      ...(args ? { args } : {}),
      ...(block ? { block } : {}),
      at: token.start,
    }
  }

  private *punctuated(token: Token): Steps<Expr> {
    const at = token.start
    switch (token.text) {
      case '-': {
        const number = this.peek(1)
        if (number.kind !== 'integer' && number.kind !== 'float') {
          this.index++
          throw this.expected("a number after `-'")
        }
        this.index += 2
        return { kind: number.kind, value: -(number.value as number), at }
      }
      case '[': {
        this.index++
        this.enter()
        const items = yield* this.list(']', () => this.expression(), 'an array element', token)
        this.depth--
        return { kind: 'array', items, at }
      }
      case '{': {
        this.index++
        this.enter()
        const entries = yield* this.list('}', () => this.entry(), 'a hash entry', token)
        const seen = new Set<string>()
        for (const entry of entries) {
          if (seen.has(entry.key)) throw duplicate(entry.at, 'hash key', entry.key)
          seen.add(entry.key)
        }
        this.depth--
        return { kind: 'hash', entries, at }
      }
      case '(': {
        this.index++
        this.enter()
        this.skipNewlines()
        if (this.isPunct(this.peek(), ')')) throw this.expected("an expression inside `( )'")
        const expr = yield* this.expression()
        this.skipNewlines()
        this.expect(')', "`)' to close the parenthesis")
        this.depth--
        return { kind: 'group', expr, at }
      }
      default:
        throw this.expected('an expression')
    }
  }

  /** Elements up to `closer`, separated by commas (one may trail); newlines are free inside. */
  private *list<T>(closer: string, item: () => Steps<T>, what: string, opened: Token): Steps<T[]> {
    const items: T[] = []
    this.skipNewlines()
    while (!this.isPunct(this.peek(), closer)) {
      if (this.due()) yield
      if (this.peek().kind === 'end') throw this.unclosed(closer, what, opened)
      items.push(yield* item())
      this.skipNewlines()
      if (this.peek().kind === 'end') throw this.unclosed(closer, what, opened)
      if (this.isPunct(this.peek(), ',')) {
        this.index++
        this.skipNewlines()
        continue
      }
      if (!this.isPunct(this.peek(), closer)) {
        throw this.expected(`\`,' or \`${closer}' after ${what}`)
      }
    }
    this.index++
    return items
  }

  /** A keyed entry: `name: value`, `"name": value`, `:name => value` or `"name" => value`. */
  private *entry(): Steps<HashEntry> {
    const keyed = yield* this.keyed()
    if (keyed) return { key: keyed.name, value: keyed.value, at: keyed.at }
    throw this.expected("a hash key: `name:', `\"name\":' or `:name =>'")
  }

  private *keyed(): Steps<Keyword | undefined> {
    const token = this.peek()
    const next = this.peek(1)
    let key: string | undefined
    if (token.kind === 'label') {
      this.index++
      key = token.value as string
    } else if (token.kind === 'string' && this.isPunct(next, ':') && !next.spaced) {
      this.index += 2
      key = token.value as string
    } else if ((token.kind === 'symbol' || token.kind === 'string') && this.isPunct(next, '=>')) {
      this.index += 2
      key = token.value as string
    }
    if (key === undefined) return undefined
    this.skipNewlines()
    return { name: key, value: yield* this.expression(), at: token.start }
  }

  /** A call's parentheses, when they follow on the same line. */
  private *arguments(): Steps<Arguments | undefined> {
    const open = this.peek()
    if (!this.isPunct(open, '(')) return undefined
    this.index++
    this.enter()
    const given: Arguments = { positional: [], keywords: [], at: open.start }
    const names = new Set<string>()
    yield* this.list(')', () => this.argument(given, names), 'an argument', open)
    this.depth--
    return given
  }

  /** One argument in a call's parentheses: positional values first, then keywords, each once. */
  private *argument({ positional, keywords }: Arguments, names: Set<string>): Steps<void> {
    const keyword = yield* this.keyed()
    if (keyword) {
      if (names.has(keyword.name)) throw duplicate(keyword.at, 'keyword', keyword.name)
      names.add(keyword.name)
      keywords.push(keyword)
      return
    }
    if (keywords.length > 0) {
      throw this.expected("a keyword argument (`name: value'); positional values come first")
    }
    positional.push(yield* this.expression())
  }

  /** A block in braces, when one follows on the same line. */
  private *block(): Steps<Block | undefined> {
    const open = this.peek()
    if (!this.isPunct(open, '{')) return undefined
    this.index++
    this.enter()
    let first = this.index
    while (this.token(first).kind === 'newline') first++
    if (this.isPunct(this.token(first), '|')) {
      this.index = first
      throw this.expected(
        'a statement',
        ": block parameters (`|x|') are outside the language; a block's value is the call it ends with",
      )
    }
    this.scopes.push(new Set())
    const statements = yield* this.statements('}', open)
    this.scopes.pop()
    this.index++
    this.depth--
    return { statements, at: open.start }
  }

  /** The program ended inside brackets or a block: say where they opened. */
  private unclosed(closer: string, what: string, opened: Token): RbSyntaxError {
    const where = `line ${opened.start.line}, column ${opened.start.column}`
    const inside = what === 'block' ? 'the block' : `the \`${opened.text}'`
    return this.expected(`\`${closer}' to close ${inside} opened at ${where}`)
  }

  /** One level deeper into brackets, a block or parentheses (the opener just read). */
  private enter(): void {
    if (++this.depth > MAX_NESTING) {
      const token = this.token(this.index - 1)
      throw new RbSyntaxError(
        token.start,
        `expected at most ${MAX_NESTING} levels of brackets, blocks and parentheses, found more`,
      )
    }
  }

  private isVariable(name: string): boolean {
    return this.scopes.some((scope) => scope.has(name))
  }

  private expect(punct: string, what: string): void {
    if (!this.isPunct(this.peek(), punct)) throw this.expected(what)
    this.index++
  }

  private skipNewlines(): void {
    while (this.peek().kind === 'newline') this.index++
  }

  private skipSeparators(): void {
    while (this.isSeparator(this.peek())) this.index++
  }

  private isSeparator(token: Token): boolean {
    return token.kind === 'newline' || this.isPunct(token, ';')
  }

  private isPunct(token: Token, text: string): boolean {
    return token.kind === 'punct' && token.text === text
  }

  private peek(ahead = 0): Token {
    return this.token(this.index + ahead)
  }

  /** "expected X, found Y" at the current token. */
  private expected(what: string, why = ''): RbSyntaxError {
    const token = this.peek()
    return new RbSyntaxError(token.start, `expected ${what}, found ${describe(token)}${why}`)
  }
}

/** A token as an error message names it. */
export function describe(token: Token): string {
  if (token.kind === 'newline') return 'the end of the line'
  if (token.kind === 'end') return 'the end of the program'
  const text = token.text.length > 24 ? `${token.text.slice(0, 23)}…` : token.text
  return `\`${text}'`
}

/** When a value follows a call on its line, the user likely meant it as an argument. */
function argumentHint(token: Token): string {
  if (token.kind === 'keyword' && token.value === 'do') {
    return "; `do … end' blocks are outside the language: write the block in braces"
  }
  const value = ['string', 'integer', 'float', 'symbol', 'identifier', 'label', 'constant']
  if (value.includes(token.kind) || (token.kind === 'punct' && token.text === '[')) {
    return '; a call\'s input and arguments go in parentheses: `core.echo("foo")\''
  }
  return ''
}

function duplicate(at: Token['start'], what: string, name: string): RbSyntaxError {
  return new RbSyntaxError(at, `expected each ${what} once, found \`${name}' again`)
}
