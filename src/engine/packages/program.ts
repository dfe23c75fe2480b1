import { parseValue } from '../lang/parser'
import type { CallNode, ComposeNode } from '../lang/tree'
import type { Value } from '../lang/value'

/**
 * A compiled program, as `core.compile` answers one: an array of `{}` compositions, one per
 * top-level block of the source, in order. A block that deploys a procedure
 * (`proc(name: …) { … }`) is a composition whose one call is `<service>.deploy`.
 */
export interface ProgramObject {
  /** The object as it came, to run as data: with the caller's authority, whoever runs it. */
  tuples: Value
  node: ComposeNode
  /** The `<service>.deploy` call of a deployable object. */
  deploy?: CallNode
}

/** `value` read as a compiled program, or undefined when it is not one. */
export function readProgram(value: Value, serviceName: string): ProgramObject[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined
  if (!value.every((item) => Array.isArray(item) && item[0] === '{}')) return undefined
  return value.map((tuples) => {
    const node = parseValue(tuples) as ComposeNode
    const [only] = node.calls
    const deploys =
      node.input === undefined &&
      node.args.size === 0 &&
      node.calls.length === 1 &&
      only!.name === `${serviceName}.deploy`
    return { tuples, node, ...(deploys ? { deploy: only } : {}) }
  })
}
