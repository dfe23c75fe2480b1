import type { Value } from './value'

/** The tuple language, parsed. Wire formats produce it; the evaluator runs it. */
export type Node = LiteralNode | RefNode | ComposeNode | CallNode

/** A `%%` literal or a bare JSON value: data, never run. */
export interface LiteralNode {
  kind: 'literal'
  value: Value
  /** The value arrived as text (a query string): a declared type may read it, `"1"` as `1`. */
  text?: true
}

/** `["@@", name, { default, type }]`: an argument in scope. */
export interface RefNode {
  kind: 'ref'
  name: string
  default?: Node
  /** A value like any other (`"integer"`, `["%%", "integer"]`, a call...), read as a type name. */
  type?: Node
}

/** `["{}", ...]`: optional input, arguments, then calls piped one into the next. */
export interface ComposeNode {
  kind: 'compose'
  input?: Node
  args: Args
  calls: CallNode[]
}

/** `["()", "a.b.c", ...]`: one endpoint call with its own input and arguments. */
export interface CallNode {
  kind: 'call'
  name: string
  input?: Node
  args: Args
}

export type Args = Map<string, Node>

/** A request as the wire delivers it: the call at the URL, with input and arguments. */
export interface CallRequest {
  input?: Node
  args: Args
}

export function literal(value: Value): LiteralNode {
  return { kind: 'literal', value }
}

/** A literal that arrived as text, which declared types may read (`"1"` as an integer). */
export function textLiteral(value: string): LiteralNode {
  return { kind: 'literal', value, text: true }
}
