import type { KeyvTarget } from '../auth/abilities'
import type { Clock } from '../clock'
import type { Signer } from '../auth/signer'
import type { Json, Store } from '../store'
import type { Decimal, Value } from '../lang/value'
import type { EndpointSettings } from '../settings'
import type { Node } from '../lang/tree'
import type { TypeName } from './types'
import type { Principal } from '../auth/principal'

/** "No input" is not `null`: a call may receive nothing at all. */
export const NONE: unique symbol = Symbol('no input')
export type Input = Value | typeof NONE

export interface ArgSpec {
  type: TypeName
  required?: boolean
  default?: Json
  doc?: string
}

export interface InputSpec {
  type: TypeName
  /** When true, a call with no input is refused with "does not accept an undefined input". */
  required: boolean
  doc?: string
}

/** What the runtime offers an endpoint while it runs; its methods are called on it (`ctx.warn(…)`). */
export interface CallContext {
  /** The engine's settings without its store: `store` below is the only way to storage. */
  settings: EndpointSettings
  /**
   * The request's overlay: reads see its own writes, which commit only if it succeeds. Its
   * `savepoint` lets one step of a request fail alone, its writes forgotten.
   */
  store: Store & { savepoint?(): () => void }
  clock: Clock
  signer: Signer
  principal: Principal
  /** Sets a response header (e.g. `x-cursor`); the last call to set it wins. */
  setHeader(name: string, value: string): void
  /** Waits on the engine clock, stopping with 408 at the time limit. */
  sleep(ms: number): Promise<void>
  /**
   * Asked between the steps of long work inside one call (compiling a program): `undefined` to
   * go on, or the wait for the evaluation's next turn (as between two calls); 408 past the
   * time limit.
   */
  turn(): Promise<void> | undefined
  /**
   * Notes a warning in this call's decision trace: the call goes on as asked, but what it was
   * given looks like a mistake (an `expiry` in milliseconds, say).
   */
  warn(message: string): void
  /**
   * Runs a procedure (a composition or a call, or a tuple tree given as data) with an input and
   * arguments flowing into it. `elevated` runs it with the account's full authority.
   */
  runProc(
    proc: Node,
    input: Input,
    args: Map<string, Input>,
    options?: { elevated?: boolean },
  ): Promise<Input>
}

/** What the runtime hands every endpoint: input and arguments already checked against its specs. */
export interface Invocation {
  name: string
  input: Input
  /** Declared arguments, coerced to their types, defaults applied; absent when not given. */
  args: Record<string, Value>
  /** Declared `proc` arguments, unevaluated. */
  procs: Record<string, Node>
  /** Evaluates every given argument the endpoint does not declare: they flow into procedures. */
  passThrough(): Promise<Map<string, Input>>
  ctx: CallContext
  /**
   * What the call touches, for an endpoint with a `target`: read (and validated) once by the
   * evaluator, which checks it against key-value limits, before `run` sees it.
   */
  target?: KeyvTarget
}

/** The value a declared type gives an endpoint. */
export interface TypeValues {
  any: Value
  string: string
  /** A decimal stays one: `Decimal#toNumber` when a double will do. */
  number: number | Decimal
  integer: number
  boolean: boolean
  array: Value[]
  object: { [key: string]: Value }
  strings: string[]
  proc: Node
}

export type ArgSpecs = Readonly<Record<string, ArgSpec>>

type NoArgs = Record<never, never>

type Declared<S extends { type: TypeName }> = TypeValues[S['type']]

/** A required or defaulted argument is always there; any other may be `undefined`. */
type ArgValue<S extends ArgSpec> = S extends { required: true }
  ? Declared<S>
  : S extends { default: unknown }
    ? Declared<S>
    : Declared<S> | undefined

type IsProc<S> = S extends { type: 'proc' } ? true : false

/** `call.args` of an endpoint declaring `A`: every argument but the `proc` ones, typed. */
export type ArgsOf<A extends ArgSpecs> = {
  readonly [K in keyof A as IsProc<A[K]> extends true ? never : K]: ArgValue<A[K]>
}

/** `call.procs` of an endpoint declaring `A`: its `proc` arguments, unevaluated. */
export type ProcsOf<A extends ArgSpecs> = {
  readonly [K in keyof A as IsProc<A[K]> extends true ? K : never]: A[K] extends { required: true }
    ? Node
    : Node | undefined
}

/** `call.input` of an endpoint declaring `I`: anything when it declares none. */
export type InputOf<I extends InputSpec | undefined> = I extends InputSpec
  ? I extends { required: true }
    ? Declared<I>
    : Declared<I> | typeof NONE
  : Input

/** An invocation typed by the endpoint's own specs, as `run` and `target` receive it. */
export interface Call<
  I extends InputSpec | undefined = undefined,
  A extends ArgSpecs = NoArgs,
> extends Omit<Invocation, 'input' | 'args' | 'procs'> {
  input: InputOf<I>
  args: ArgsOf<A>
  procs: ProcsOf<A>
}

/** An endpoint as the registry holds it, whatever its specs. */
export interface Endpoint {
  /** Dotted name, e.g. `type.string.reverse`. */
  name: string
  /** One line for the playground's endpoint list. */
  summary: string
  /** Absent: the endpoint ignores its input. */
  input?: InputSpec
  args?: ArgSpecs
  /** Granting an ability that covers this endpoint needs `insecure: true`. */
  insecure?: boolean
  /** For abilities with key-value limits: what this call touches. */
  target?(call: Invocation): KeyvTarget
  run(call: Invocation): Promise<Value> | Value
}

/** An endpoint as written: `input` and `args` type what `run` and `target` receive. */
export interface EndpointDefinition<
  I extends InputSpec | undefined,
  A extends ArgSpecs,
> extends Omit<Endpoint, 'input' | 'args' | 'target' | 'run'> {
  input?: I
  args?: A
  target?(call: Call<I, A>): KeyvTarget
  run(call: Call<I, A>): Promise<Value> | Value
}

/**
 * Declares an endpoint. Its `input` and `args` specs type its handler, as TanStack Query's
 * `queryOptions` types a query: `{ length: { type: 'integer', required: true } }` gives
 * `call.args.length: number`, an optional argument without default is `T | undefined`.
 */
export function defineEndpoint<
  const I extends InputSpec | undefined = undefined,
  const A extends ArgSpecs = NoArgs,
>(definition: EndpointDefinition<I, A>): Endpoint {
  // The one place the types are taken on trust: the runtime checks and coerces every input
  // and argument against these same specs before `run` (or `target`) sees the call.
  return definition as unknown as Endpoint
}
