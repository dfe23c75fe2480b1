import type { Value } from '../value'
import { RbSyntaxError, type Position } from './syntax-error'

/**
 * What a composer program's expressions stand for, as the proc-composer gem builds them: a
 * callable (an endpoint name with an input and arguments), a composition (an input, arguments
 * and callables piped one into the next), an argument reference, or plain data. Serializing
 * one gives tuples, exactly as the gem's `serialize` does.
 */
export type Composed = Data | Sym | Callable | Composition | Argument

/** No input given: the gem's `Proc::Composer.undefined`. */
export const UNDEFINED: unique symbol = Symbol('undefined')
export type MaybeInput = Composed | typeof UNDEFINED

export type Data =
  | { kind: 'scalar'; value: string | number | boolean | null; at: Position }
  | { kind: 'array'; items: Composed[]; at: Position }
  | { kind: 'hash'; entries: Array<[string, Composed]>; at: Position }

/** `:name`: a reference to an argument where it stands as an input or an argument. */
export interface Sym {
  kind: 'symbol'
  name: string
  at: Position
}

export interface Callable {
  kind: 'callable'
  name: string
  input: MaybeInput
  args: Map<string, Composed>
  at: Position
}

export interface Composition {
  kind: 'composition'
  input: MaybeInput
  args: Map<string, Composed>
  callables: Callable[]
  at: Position
}

/** `arg(:name, default: …, type: …)` */
export interface Argument {
  kind: 'argument'
  name: string
  options: Map<string, Composed>
  at: Position
}

/** Past this many values the tuples of one program are refused, shared parts counted each time. */
export const MAX_COMPILED_VALUES = 100_000
/** The tuples of one program nest at most this deep, as a body may. */
export const MAX_COMPILED_DEPTH = 256

export const isComposable = (value: Composed): value is Callable | Composition =>
  value.kind === 'callable' || value.kind === 'composition'

/** `callable >> other` (and `|`, `.compose`): a composition with the callable's input. */
export function compose(left: Callable | Composition, right: Callable | Composition): Composition {
  const composed: Composition =
    left.kind === 'callable'
      ? { kind: 'composition', input: left.input, args: new Map(), callables: [left], at: left.at }
      : { ...left, args: new Map(left.args), callables: [...left.callables] }
  if (right.kind === 'callable') {
    composed.callables.push(right)
  } else {
    // The gem merges a composition on the right: its callables and arguments, not its input.
    composed.callables.push(...right.callables)
    for (const [name, value] of right.args) composed.args.set(name, value)
  }
  return composed
}

/** Serializes values for one program, holding the whole to the size and depth limits. */
export class Serializer {
  private count = 0

  /** A value where it stands as an input or an argument: what the gem's `serialize_value` gives. */
  value(value: Composed, depth = 0): Value {
    this.step(value.at, depth)
    switch (value.kind) {
      case 'symbol':
        return ['@@', value.name, {}]
      case 'callable':
        return ['{}', this.call(value, depth + 1)]
      case 'composition':
        return this.composition(value, depth)
      case 'argument':
        return ['@@', value.name, this.options(value, depth + 1)]
      default:
        return ['%%', this.data(value, depth + 1)]
    }
  }

  composition(value: Composition, depth = 0): Value {
    this.step(value.at, depth)
    return [
      '{}',
      ...this.inputAndArgs(value.input, value.args, depth + 1),
      ...value.callables.map((callable) => this.call(callable, depth + 1)),
    ]
  }

  /** A callable as the gem writes it inside a composition (`serialize(unwrapped: true)`). */
  call(value: Callable, depth: number): Value {
    this.step(value.at, depth)
    return ['()', value.name, ...this.inputAndArgs(value.input, value.args, depth + 1)]
  }

  private inputAndArgs(input: MaybeInput, args: Map<string, Composed>, depth: number): Value[] {
    const tuples: Value[] = []
    if (input !== UNDEFINED) tuples.push(['>>', this.value(input, depth + 1)])
    for (const [name, value] of args) tuples.push(['$$', name, this.value(value, depth + 1)])
    return tuples
  }

  /** An argument's options: symbols there are data (`type: :integer`), not references. */
  private options(value: Argument, depth: number): Value {
    const entries: Array<[string, Value]> = []
    for (const [name, option] of value.options) {
      entries.push([
        name,
        option.kind === 'symbol' ? ['%%', option.name] : this.value(option, depth + 1),
      ])
    }
    return Object.fromEntries(entries)
  }

  /** Literal data, as MessagePack would carry the Ruby value: symbols become strings. */
  private data(value: Composed, depth: number): Value {
    this.step(value.at, depth)
    switch (value.kind) {
      case 'scalar':
        return value.value
      case 'symbol':
        return value.name
      case 'array':
        return value.items.map((item) => this.data(item, depth + 1))
      case 'hash':
        return Object.fromEntries(
          value.entries.map(([key, item]): [string, Value] => [key, this.data(item, depth + 1)]),
        )
      default:
        throw new RbSyntaxError(
          value.at,
          `expected data inside an array or a hash, found ${describeComposed(value)}: data is sent as it is, so a call cannot stand inside it; pass the call as an input or an argument`,
        )
    }
  }

  private step(at: Position, depth: number): void {
    if (++this.count > MAX_COMPILED_VALUES) {
      throw new RbSyntaxError(
        at,
        `expected a smaller program: its tuples would hold more than ${MAX_COMPILED_VALUES} values`,
      )
    }
    if (depth > MAX_COMPILED_DEPTH) {
      throw new RbSyntaxError(
        at,
        `expected a shallower program: its tuples would nest deeper than ${MAX_COMPILED_DEPTH} levels`,
      )
    }
  }
}

/** What a value is, as an error message names it. */
export function describeComposed(value: Composed): string {
  switch (value.kind) {
    case 'callable':
      return `the call \`${value.name}'`
    case 'composition':
      return 'a composition'
    case 'argument':
      return `the argument reference \`${value.name}'`
    case 'symbol':
      return `the symbol \`:${value.name}'`
    case 'array':
      return 'an array'
    case 'hash':
      return 'a hash'
    case 'scalar':
      if (value.value === null) return "`nil'"
      if (typeof value.value === 'string') return 'a string'
      if (typeof value.value === 'boolean') return `\`${value.value}'`
      return 'a number'
  }
}
