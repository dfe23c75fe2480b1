import type { KeyvTarget } from '../auth/abilities'
import type { Clock } from '../clock'
import type { Signer } from '../auth/signer'
import type { Json, Store } from '../store'
import type { EndpointSettings } from '../settings'
import type { Node } from '../lang/tree'
import type { TypeName } from './types'
import type { Principal } from '../auth/principal'

/** "No input" is not `null`: a call may receive nothing at all. */
export const NONE: unique symbol = Symbol('no input')
export type Input = Json | typeof NONE

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

/** What the runtime offers an endpoint while it runs. */
export interface CallContext {
  /** The engine's settings without its store: `store` below is the only way to storage. */
  settings: EndpointSettings
  /** The request's overlay: reads see its own writes, which commit only if it succeeds. */
  store: Store
  clock: Clock
  signer: Signer
  principal: Principal
  /** Sets a response header (e.g. `x-cursor`); the last call to set it wins. */
  setHeader(name: string, value: string): void
  /** Waits on the engine clock, stopping with 408 at the time limit. */
  sleep(ms: number): Promise<void>
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

export interface Invocation<A extends Record<string, Json> = Record<string, Json>> {
  name: string
  input: Input
  /** Declared arguments, coerced to their types, defaults applied. */
  args: A
  /** Declared `proc` arguments, unevaluated. */
  procs: Record<string, Node>
  /** Evaluates every given argument the endpoint does not declare: they flow into procedures. */
  passThrough(): Promise<Map<string, Input>>
  ctx: CallContext
}

export interface Endpoint {
  /** Dotted name, e.g. `type.string.reverse`. */
  name: string
  /** One line for the playground's endpoint list. */
  summary: string
  /** Absent: the endpoint ignores its input. */
  input?: InputSpec
  args?: Record<string, ArgSpec>
  /** Granting an ability that covers this endpoint needs `insecure: true`. */
  insecure?: boolean
  /** For abilities with key-value limits: what this call touches. */
  target?(call: Invocation): KeyvTarget
  run(call: Invocation): Promise<Json> | Json
}

/** Declares an endpoint; the identity function, there for inference and for readers. */
export function defineEndpoint(endpoint: Endpoint): Endpoint {
  return endpoint
}
