import type { Json } from '../store'

/** The tuple language, parsed. Wire formats produce it; the evaluator runs it. */
export type Node = LiteralNode | RefNode | ComposeNode | CallNode

/** A `%%` literal or a bare JSON value: data, never run. */
export interface LiteralNode {
  kind: 'literal'
  value: Json
}

/** `["@@", name, { default, type }]`: an argument in scope. */
export interface RefNode {
  kind: 'ref'
  name: string
  default?: Node
  type?: string
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

export function literal(value: Json): LiteralNode {
  return { kind: 'literal', value }
}
