import type { Position } from './syntax-error'

/**
 * The composer language, parsed: the subset of Ruby that the proc-composer gem gives meaning
 * to. Every node knows where it starts, so that `compile.ts` can name the line and column of
 * a program it cannot turn into tuples. Nothing here is ever run.
 */
export interface Program {
  statements: Statement[]
}

export type Statement = Assignment | ExpressionStatement

/** `name = value`: a local variable, visible to what follows it and to blocks inside. */
export interface Assignment {
  kind: 'assign'
  name: string
  value: Expr
  at: Position
}

export interface ExpressionStatement {
  kind: 'expression'
  expr: Expr
  at: Position
}

/** `{ statements }`: its value is its last statement's. */
export interface Block {
  statements: Statement[]
  at: Position
}

/** `name: value` in a call's parentheses. */
export interface Keyword {
  name: string
  value: Expr
  at: Position
}

/** What a call's parentheses hold: positional values first, then keywords. */
export interface Arguments {
  positional: Expr[]
  keywords: Keyword[]
  at: Position
}

export interface HashEntry {
  key: string
  value: Expr
  at: Position
}

export type Expr =
  | { kind: 'string'; value: string; at: Position }
  | { kind: 'integer'; value: number; at: Position }
  | { kind: 'float'; value: number; at: Position }
  | { kind: 'boolean'; value: boolean; at: Position }
  | { kind: 'nil'; at: Position }
  | { kind: 'symbol'; name: string; at: Position }
  | { kind: 'array'; items: Expr[]; at: Position }
  | { kind: 'hash'; entries: HashEntry[]; at: Position }
  /** A local variable assigned before it is read. */
  | { kind: 'variable'; name: string; at: Position }
  /** A bare name that is no variable (`core`, `exec`, `arg`), with what follows it. */
  | { kind: 'name'; name: string; args?: Arguments; block?: Block; at: Position }
  /** `target.name(args) { block }` */
  | { kind: 'send'; target: Expr; name: string; args?: Arguments; block?: Block; at: Position }
  /** `target["name"] { block }` */
  | { kind: 'index'; target: Expr; key: Expr; block?: Block; at: Position }
  /** `left >> right`, `left | right`, `left .| right`, `left .>> right` */
  | { kind: 'pipe'; left: Expr; right: Expr; op: PipeOperator; at: Position }
  | { kind: 'group'; expr: Expr; at: Position }

export type PipeOperator = '>>' | '|' | '.|' | '.>>'

export type ExprKind = Expr['kind']
