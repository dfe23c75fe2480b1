import type { Arguments, Block, Expr, Program, Statement } from './ast'

/**
 * Writes a parsed program back as source, two spaces per block level: parsing what it writes
 * gives the same program again (positions aside). The playground shows programs with it, and
 * the property test holds the parser to it.
 */
export function printProgram(program: Program): string {
  return program.statements.map((statement) => printStatement(statement, 0)).join('\n')
}

const LABEL = /^[a-z_][A-Za-z0-9_]*$/
const SYMBOL = /^[A-Za-z_][A-Za-z0-9_]*$/

function printStatement(statement: Statement, level: number): string {
  if (statement.kind === 'assign') return `${statement.name} = ${printExpr(statement.value, level)}`
  return printExpr(statement.expr, level)
}

export function printExpr(expr: Expr, level = 0): string {
  switch (expr.kind) {
    case 'string':
      return quote(expr.value)
    case 'integer':
      return String(expr.value)
    case 'float':
      return printFloat(expr.value)
    case 'boolean':
      return String(expr.value)
    case 'nil':
      return 'nil'
    case 'symbol':
      return SYMBOL.test(expr.name) ? `:${expr.name}` : `:${quote(expr.name)}`
    case 'array':
      return `[${expr.items.map((item) => printExpr(item, level)).join(', ')}]`
    case 'hash':
      return `{${expr.entries.map((entry) => `${key(entry.key)} ${printExpr(entry.value, level)}`).join(', ')}}`
    case 'variable':
      return expr.name
    case 'name':
      return `${expr.name}${printArgs(expr.args, level)}${printBlock(expr.block, level)}`
    case 'send':
      return `${printExpr(expr.target, level)}.${expr.name}${printArgs(expr.args, level)}${printBlock(expr.block, level)}`
    case 'index':
      return `${printExpr(expr.target, level)}[${printExpr(expr.key, level)}]${printBlock(expr.block, level)}`
    case 'pipe':
      return `${printExpr(expr.left, level)} ${expr.op} ${printExpr(expr.right, level)}`
    case 'group':
      return `(${printExpr(expr.expr, level)})`
  }
}

function printArgs(args: Arguments | undefined, level: number): string {
  if (!args) return ''
  const parts = [
    ...args.positional.map((value) => printExpr(value, level)),
    ...args.keywords.map((keyword) => `${key(keyword.name)} ${printExpr(keyword.value, level)}`),
  ]
  return `(${parts.join(', ')})`
}

function printBlock(block: Block | undefined, level: number): string {
  if (!block) return ''
  if (block.statements.length === 0) return ' {}'
  const inner = '  '.repeat(level + 1)
  const lines = block.statements.map((statement) => inner + printStatement(statement, level + 1))
  return ` {\n${lines.join('\n')}\n${'  '.repeat(level)}}`
}

/** A hash key or keyword: `name:` when it reads as one, else `"any text":`. */
function key(name: string): string {
  return LABEL.test(name) ? `${name}:` : `${quote(name)}:`
}

/** A double-quoted string that reads back as `text`: nothing in it interpolates. */
export function quote(text: string): string {
  let out = '"'
  for (const c of text) {
    const code = c.codePointAt(0)!
    if (c === '"' || c === '\\' || c === '#') out += `\\${c}`
    else if (c === '\n') out += '\\n'
    else if (c === '\t') out += '\\t'
    else if (c === '\r') out += '\\r'
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) out += `\\u{${code.toString(16)}}`
    else out += c
  }
  return `${out}"`
}

/** A float as Ruby reads one back: always with a fraction or an exponent. */
function printFloat(value: number): string {
  const text = String(value)
  if (/[e.]/.test(text)) return text
  return `${text}.0`
}
