import type { Value } from '../value'
import { STEP_WORK, type Steps } from './steps'
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
  callables: Callables
  at: Position
}

/**
 * A composition's callables in order, shared with the compositions it was made from: joining
 * two lists copies neither, so composing is as cheap however long they are (a variable holding
 * a composition may be composed with itself on every line, doubling it).
 */
export type Callables = readonly [Callable] | Join

interface Join {
  readonly first: Callables
  readonly then: Callables
  readonly length: number
}

const join = (first: Callables, then: Callables): Join => ({
  first,
  then,
  length: first.length + then.length,
})

/** The callables in order, walked with a stack of its own. */
function* eachCallable(list: Callables): Generator<Callable, void, void> {
  const stack: Callables[] = [list]
  while (stack.length > 0) {
    const top = stack.pop()!
    if ('first' in top) stack.push(top.then, top.first)
    else yield top[0]
  }
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

/** A callable alone as a composition: its input, no arguments of its own. */
export const wrap = (callable: Callable): Composition => ({
  kind: 'composition',
  input: callable.input,
  args: new Map(),
  callables: [callable],
  at: callable.at,
})

/**
 * `callable >> other` (and `|`, `.compose`): a composition with the callable's input. `at` is
 * where the composing is written, named when the composition would hold more callables than a
 * program's tuples may hold values.
 */
export function compose(
  left: Callable | Composition,
  right: Callable | Composition,
  at: Position,
): Composition {
  const composed = left.kind === 'callable' ? wrap(left) : left
  const added = right.kind === 'callable' ? ([right] as const) : right.callables
  if (composed.callables.length + added.length > MAX_COMPILED_VALUES) {
    throw new RbSyntaxError(
      at,
      `expected a smaller program: a composition would hold more than ${MAX_COMPILED_VALUES} calls`,
    )
  }
  const args = new Map(composed.args)
  // The gem merges a composition on the right: its callables and arguments, not its input.
  if (right.kind === 'composition') for (const [name, value] of right.args) args.set(name, value)
  return { ...composed, args, callables: join(composed.callables, added) }
}

/**
 * Serializes values for one program, holding the whole to the size and depth limits, in steps
 * (see `steps.ts`): it stops every few hundred values. Its recursion follows the tuples' depth,
 * held to `MAX_COMPILED_DEPTH`.
 */
export class Serializer {
  /** A value where it stands as an input or an argument: what the gem's `serialize_value` gives. */
  *value(value: Composed, depth = 0): Steps<Value> {
    if (this.step(value.at, depth)) yield
    switch (value.kind) {
      case 'symbol':
        return ['@@', value.name, {}]
      case 'callable':
        return ['{}', yield* this.call(value, depth + 1)]
      case 'composition':
        return yield* this.composition(value, depth)
      case 'argument':
        return ['@@', value.name, yield* this.options(value, depth + 1)]
      default:
        return ['%%', yield* this.data(value, depth + 1)]
    }
  }

  *composition(value: Composition, depth = 0): Steps<Value> {
    if (this.step(value.at, depth)) yield
    const tuples: Value[] = [
      '{}',
      ...(yield* this.inputAndArgs(value.input, value.args, depth + 1)),
    ]
    for (const callable of eachCallable(value.callables)) {
      tuples.push(yield* this.call(callable, depth + 1))
    }
    return tuples
  }

  /** A callable as the gem writes it inside a composition (`serialize(unwrapped: true)`). */
  *call(value: Callable, depth: number): Steps<Value> {
    if (this.step(value.at, depth)) yield
    return ['()', value.name, ...(yield* this.inputAndArgs(value.input, value.args, depth + 1))]
  }

  private *inputAndArgs(
    input: MaybeInput,
    args: Map<string, Composed>,
    depth: number,
  ): Steps<Value[]> {
    const tuples: Value[] = []
    if (input !== UNDEFINED) tuples.push(['>>', yield* this.value(input, depth + 1)])
    for (const [name, value] of args) tuples.push(['$$', name, yield* this.value(value, depth + 1)])
    return tuples
  }

  /** An argument's options: symbols there are data (`type: :integer`), not references. */
  private *options(value: Argument, depth: number): Steps<Value> {
    const entries: Array<[string, Value]> = []
    for (const [name, option] of value.options) {
      entries.push([
        name,
        option.kind === 'symbol' ? ['%%', option.name] : yield* this.value(option, depth + 1),
      ])
    }
    return Object.fromEntries(entries)
  }

  /** Literal data, as MessagePack would carry the Ruby value: symbols become strings. */
  private *data(value: Composed, depth: number): Steps<Value> {
    if (this.step(value.at, depth)) yield
    switch (value.kind) {
      case 'scalar':
        return value.value
      case 'symbol':
        return value.name
      case 'array': {
        const items: Value[] = []
        for (const item of value.items) items.push(yield* this.data(item, depth + 1))
        return items
      }
      case 'hash': {
        const entries: Array<[string, Value]> = []
        for (const [key, item] of value.entries)
          entries.push([key, yield* this.data(item, depth + 1)])
        return Object.fromEntries(entries)
      }
      default:
        throw new RbSyntaxError(
          value.at,
          `expected data inside an array or a hash, found ${describeComposed(value)}: data is sent as it is, so a call cannot stand inside it; pass the call as an input or an argument`,
        )
    }
  }

  // Declared after the methods: a generator method right after a field would read as `0 * value(…)`.
  private count = 0

  /** Counts one value against the limits; whether it is time for a step. */
  private step(at: Position, depth: number): boolean {
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
    return this.count % STEP_WORK === 0
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
