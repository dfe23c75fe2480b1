import type { KeyvTarget } from '../auth/abilities'
import { platformRandom, type Maybe, type Purpose, type Random } from '../auth/random'
import { BY_SECRET, decide, decideTarget, Refusal } from '../auth/decide'
import { withCounterfactual } from '../auth/counterfactual'
import { checkGone, InvalidError, TimeoutError, UndefinedError, UnauthorizedError } from '../errors'
import { jsonText } from '../lang/json-text'
import { isRecord, type Value } from '../lang/value'
import { asProcedure } from '../lang/parser'
import { literal, type CallNode, type CallRequest, type ComposeNode, type Node } from '../lang/tree'
import type { ArgSpec, ArgSpecs, CallContext, Endpoint, Input, Invocation } from './endpoint'
import { NONE } from './endpoint'
import { EMPTY, Scope, type Lazy } from './scope'
import { measure } from './size'
import type { CallTrace, CallTracer } from '../trace'
import { yieldWhenDue, type Pause } from './turns'
import { coerce, NOT_COERCIBLE, REFERENCE_TYPES, type TypeName } from './types'

/** Finds an endpoint by dotted name: built-in, or a stored procedure. */
export type Resolver = (name: string) => Endpoint | undefined | Promise<Endpoint | undefined>

/** The names beside an undefined one, to suggest in its 404 (none when its package is unknown). */
export type Neighbours = (name: string) => string[]

/** Where evaluation stands: how deep, and whether calls run with the account's authority. */
interface Frame {
  depth: number
  elevated: boolean
}

/** The memo a value that is not an object is measured with: `measure` never reads it. */
const UNUSED_MEMO = new WeakMap<object, number>()

const deeper = (frame: Frame): Frame => ({ ...frame, depth: frame.depth + 1 })

/**
 * One request's evaluation of the tuple language: calls, compositions and references, with
 * every call checked against the caller's abilities and every step against the limits.
 */
export class Evaluation {
  private calls = 0
  /** Sizes of the objects measured so far: made when the first object is measured. */
  private sizes: WeakMap<object, number> | undefined
  private readonly deadline: number

  constructor(
    readonly ctx: Omit<CallContext, 'sleep' | 'runProc' | 'warn' | 'turn' | 'draw'> & {
      /** Where random values come from: the account's generator; the platform's by default. */
      random?: Random
      /** The request's step on the account's timeline: what keys a seeded account's draws. */
      step?: number
      /** Counts one endpoint call against the rate limit; throws past it. */
      countCall?: () => void | Promise<void>
      /** Records what each call decided, for the request's trace. */
      tracer?: CallTracer
      /** When the request must be answered by (engine clock ms); its time limit from now by default. */
      deadline?: number
      /** Asked before each call: a wait for the evaluation's next turn when it has had its share. */
      pause?: Pause
      /** Aborted once no one waits for the answer: the evaluation stops at its next call. */
      signal?: AbortSignal
    },
    private readonly resolveEndpoint: Resolver,
    private readonly neighbours: Neighbours = () => [],
  ) {
    this.deadline = ctx.deadline ?? ctx.clock.now() + ctx.settings.limits.timeLimitMs
  }

  /** Runs the call at the request's URL with the request's input and arguments. */
  run(name: string, request: CallRequest): Promise<Input> {
    const frame: Frame = { depth: 0, elevated: false }
    const scope = this.scopeOf(request.args, EMPTY, name, frame)
    return this.call(
      { kind: 'call', name, input: request.input, args: request.args },
      NONE,
      scope,
      frame,
    )
  }

  /** Random values drawn so far in this run: what keys the next one, with the step. */
  private draws = 0

  /** `length` bytes for `purpose` from the account's generator. */
  draw(purpose: Purpose, length: number): Maybe<Uint8Array> {
    const { random = platformRandom, step = 0 } = this.ctx
    return random.bytes(purpose, `${step}.${this.draws++}`, length)
  }

  /** Waits on the engine clock, but never past the time limit. */
  async sleep(ms: number): Promise<void> {
    const remaining = this.deadline - this.ctx.clock.now()
    await this.ctx.clock.sleep(Math.min(ms, Math.max(0, remaining) + 1))
    this.checkTime()
  }

  /** Between two steps of one call's work: the time limit, then the evaluation's turn. */
  turn(): Promise<void> | undefined {
    this.checkTime()
    return this.ctx.pause ? this.ctx.pause() : yieldWhenDue(this.ctx.settings.limits.sliceMs)
  }

  private checkTime(): void {
    checkGone(this.ctx.signal)
    if (this.ctx.clock.now() > this.deadline) {
      throw new TimeoutError(this.ctx.settings.limits.timeLimitMs / 1000)
    }
  }

  private step(frame: Frame): void {
    const { maxDepth, maxCalls } = this.ctx.settings.limits
    if (frame.depth > maxDepth) {
      throw new InvalidError(`the call tree nests deeper than ${maxDepth} levels`, 'too_deep')
    }
    if (++this.calls > maxCalls) {
      throw new InvalidError(`the request makes more than ${maxCalls} calls`, 'too_many_calls')
    }
    this.checkTime()
  }

  private scopeOf(
    args: Map<string, Node>,
    outer: Scope,
    site: string,
    frame: Frame,
    parent = outer,
  ) {
    // A scope with nothing in it resolves as its parent does.
    if (args.size === 0) return parent
    const entries = new Map<string, Lazy>()
    for (const [name, node] of args) entries.set(name, () => this.value(node, outer, site, frame))
    return new Scope(entries, parent)
  }

  /**
   * Evaluates a value position: literal, reference, composition or call. A composition with no
   * input of its own receives `piped`: the value flowing into the call it feeds when it stands
   * in that call's input, nothing when it stands in an argument.
   */
  private async value(
    node: Node,
    scope: Scope,
    site: string,
    frame: Frame,
    piped: Input = NONE,
  ): Promise<Input> {
    switch (node.kind) {
      case 'literal':
        return node.value
      case 'compose':
        return this.compose(node, piped, scope, site, deeper(frame))
      case 'call':
        return this.call(node, NONE, scope, deeper(frame))
      case 'ref': {
        let value = await scope.resolve(node.name)
        if (value === undefined || value === NONE) {
          if (node.default === undefined) throw required(node.name, site)
          value = await this.value(node.default, scope, site, deeper(frame))
        }
        if (node.type === undefined || value === NONE) return value
        const type = await this.value(node.type, scope, site, deeper(frame))
        if (typeof type !== 'string' || !REFERENCE_TYPES.includes(type as TypeName)) {
          throw new InvalidError(
            `reference \`${node.name}' names an unknown type ${typeof type === 'string' ? `\`${type}'` : jsonText(asJson(type))}; use one of ${REFERENCE_TYPES.join(', ')}`,
          )
        }
        return coerced(value, type as TypeName, node.name, site)
      }
    }
  }

  /**
   * Runs a composition: its arguments in a new scope (those in `given` win over its own), its
   * own input evaluated in that scope (or the one piped in), then its calls in order, each fed
   * the last output.
   */
  private async compose(
    node: ComposeNode,
    piped: Input,
    scope: Scope,
    site: string,
    frame: Frame,
    given?: Map<string, Input>,
  ): Promise<Input> {
    this.step(frame)
    const inner = this.scopeOf(node.args, scope, site, frame)
    const scoped = given?.size
      ? new Scope(new Map([...given].map(([name, value]) => [name, async () => value])), inner)
      : inner
    let current =
      node.input !== undefined ? await this.value(node.input, scoped, site, frame, piped) : piped
    for (const call of node.calls) current = await this.call(call, current, scoped, deeper(frame))
    return current
  }

  /**
   * Runs a procedure argument (a composition, a call, or a tuple tree that arrived as data)
   * in `scope`, with `args` flowing in over its own.
   */
  private async runProc(
    proc: Node,
    input: Input,
    args: Map<string, Input>,
    site: string,
    frame: Frame,
    scope: Scope,
  ): Promise<Input> {
    const resolved =
      proc.kind === 'ref' ? literal(asJson(await this.value(proc, scope, site, frame))) : proc
    const node = asProcedure(resolved)
    if (!node) {
      throw new InvalidError(
        `\`${site}' runs a procedure: give a "{}" composition or a "()" call`,
        'not_a_proc',
      )
    }
    // Code that arrives as data (a reference's value, a tuple tree given as input) is the
    // caller's, whoever runs it: it runs with the caller's authority, never a procedure's.
    const authority = resolved.kind === 'literal' ? { ...frame, elevated: false } : frame
    return this.compose(node, input, scope, site, deeper(authority), args)
  }

  private async call(node: CallNode, piped: Input, scope: Scope, frame: Frame): Promise<Input> {
    const { tracer } = this.ctx
    const entry = tracer?.enter(node.name)
    try {
      const output = await this.traced(node, piped, scope, frame, entry)
      tracer?.leave()
      return output
    } catch (error) {
      tracer?.fail(entry, error)
      throw error
    }
  }

  private async traced(
    node: CallNode,
    piped: Input,
    scope: Scope,
    frame: Frame,
    entry: CallTrace | undefined,
  ): Promise<Input> {
    this.step(frame)
    const { name } = node
    // Built-in endpoints are found at once; only a stored procedure is read from the store.
    const found = this.resolveEndpoint(name)
    const endpoint = found instanceof Promise ? await found : found
    if (!endpoint) throw this.undefined(name)
    const counting = this.ctx.countCall?.()
    if (counting) await counting
    const turn = this.ctx.pause ? this.ctx.pause() : yieldWhenDue(this.ctx.settings.limits.sliceMs)
    if (turn) await turn
    this.authorize(name, frame, entry, endpoint.insecure === true)

    // The order of checks: the endpoint exists, an ability covers it, the input's type, then
    // each argument (required, then its type).
    const input = this.accepted(
      endpoint,
      node.input !== undefined ? await this.value(node.input, scope, name, frame, piped) : piped,
    )
    // An endpoint that takes no input reads the members of an object input as arguments.
    const members = !endpoint.input && isRecord(input) ? input : undefined
    const declared = endpoint.args ?? {}
    const args: Record<string, Value> = {}
    const procs: Record<string, Node> = {}
    for (const [arg, spec] of specsOf(endpoint)) {
      const given = node.args.get(arg)
      if (spec.type === 'proc') {
        if (given) procs[arg] = given
        else if (members && Object.hasOwn(members, arg)) procs[arg] = literal(members[arg]!)
        else if (spec.required) throw required(arg, name)
        continue
      }
      // Nothing is piped into an argument: a composition there starts with no input, as in
      // the real service; only one in input position receives the value flowing in.
      let value = !given
        ? NONE
        : given.kind === 'literal'
          ? given.value
          : await this.value(given, scope, name, frame)
      let fromText = given?.kind === 'literal' && given.text === true
      if (value === NONE && members && Object.hasOwn(members, arg)) {
        value = members[arg]!
        fromText = false
      }
      if (value !== NONE) args[arg] = coerced(value, spec.type, arg, name, fromText)
      else if (spec.default !== undefined) args[arg] = spec.default
      else if (spec.required) throw required(arg, name)
    }

    const invocation: Invocation = {
      name,
      input,
      args,
      procs,
      passThrough: () => this.passThrough(node, declared, scope, name, frame),
      ctx: new InvocationContext(this, entry, name, frame, scope),
    }
    if (endpoint.target) {
      invocation.target = endpoint.target(invocation)
      if (!frame.elevated) this.authorizeTarget(endpoint.name, invocation.target, entry)
    }
    return this.bounded(await endpoint.run(invocation), name)
  }

  /** Evaluates every argument given that the endpoint does not declare: they flow into procedures. */
  private async passThrough(
    node: CallNode,
    declared: ArgSpecs,
    scope: Scope,
    name: string,
    frame: Frame,
  ): Promise<Map<string, Input>> {
    const passed = new Map<string, Input>()
    for (const [arg, given] of node.args) {
      if (Object.hasOwn(declared, arg)) continue
      const value = await this.value(given, scope, name, frame)
      if (value !== NONE) passed.set(arg, value)
    }
    return passed
  }

  /**
   * Runs a procedure for the call `name`: one written inside the call sees the scope it was
   * written in; a stored one, run with the account's authority, sees only what is given to it.
   */
  runProcOf(
    proc: Node,
    input: Input,
    args: Map<string, Input>,
    name: string,
    frame: Frame,
    scope: Scope,
    elevated = false,
  ): Promise<Input> {
    return elevated
      ? this.runProc(proc, input, args, name, { ...frame, elevated: true }, EMPTY)
      : this.runProc(proc, input, args, name, frame, scope)
  }

  /** Stops values that grow without bound (compositions can double one at every level). */
  private bounded(value: Value, site: string): Value {
    const { maxValueBytes } = this.ctx.settings.limits
    // A string or a number is measured as it is: no memo is made for it.
    const sizes =
      value !== null && typeof value === 'object' ? (this.sizes ??= new WeakMap()) : UNUSED_MEMO
    if (measure(value, maxValueBytes, sizes) > maxValueBytes) {
      throw new InvalidError(
        `the output of \`${site}' is larger than ${maxValueBytes} bytes`,
        'value_too_large',
      )
    }
    return value
  }

  /** The input as the endpoint declares it, or the 400 that says why not. */
  private accepted(endpoint: Endpoint, input: Input): Input {
    if (!endpoint.input) return input
    const service = this.ctx.settings.serviceName
    if (input === NONE) {
      if (!endpoint.input.required) return input
      throw new InvalidError(`${service} \`${endpoint.name}' does not accept an undefined input`)
    }
    const value = coerce(input, endpoint.input.type)
    if (value === NOT_COERCIBLE) {
      throw new InvalidError(`${service} \`${endpoint.name}' does not accept the given input`)
    }
    return value
  }

  /** The 404 for `name`, suggesting what its package holds when the package is known. */
  private undefined(name: string): UndefinedError {
    const message = `undefined ${this.ctx.settings.serviceName} \`${name}'`
    const near = this.neighbours(name)
    if (near.length === 0) return new UndefinedError(message)
    return new UndefinedError(`${message}; try one of: ${near.map((n) => `\`${n}'`).join(', ')}`)
  }

  /** Lets the call in, or refuses it with 401; says which grant let it in. */
  private authorize(
    name: string,
    frame: Frame,
    entry: CallTrace | undefined,
    insecure: boolean,
  ): void {
    const { principal } = this.ctx
    // The trace's sentences are written only when there is a trace.
    if (frame.elevated) {
      if (entry) {
        grant(
          entry,
          'procedure',
          null,
          "runs inside a stored procedure, with the account's full authority",
        )
      }
      return
    }
    const verdict = decide(principal, name, insecure)
    if (verdict instanceof Refusal) throw this.denied(name, entry, verdict)
    if (!entry) return
    if (verdict === BY_SECRET) {
      return grant(
        entry,
        'secret',
        null,
        `the secret key of \`${principal.secretId}' reaches every endpoint`,
      )
    }
    grant(entry, 'ability', verdict.raw, `ability \`${verdict.raw}' covers \`${name}'`)
  }

  /** For key-value calls: an ability's bucket and prefix limits must reach what the call touches. */
  private authorizeTarget(name: string, target: KeyvTarget, entry: CallTrace | undefined): void {
    const { principal } = this.ctx
    if (principal.kind !== 'authorization') return
    // What it touched, for the trace: least privilege reads the buckets and keys a token used.
    if (entry) entry.target = { bucket: target.bucket, key: target.key }
    const verdict = decideTarget(principal, name, target)
    if (verdict instanceof Refusal) throw this.denied(name, entry, verdict)
    if (verdict === BY_SECRET || !entry) return
    grant(
      entry,
      'ability',
      verdict.raw,
      `ability \`${verdict.raw}' covers \`${name}' in bucket \`${target.bucket}' for \`${target.key}'`,
    )
  }

  private denied(name: string, entry: CallTrace | undefined, refusal: Refusal): UnauthorizedError {
    // Both refusals read alike on the wire, as the real service words them; the trace tells
    // them apart, and says what would have let the call in.
    const error = new UnauthorizedError(
      `authorization does not have the ability to access ${this.ctx.settings.serviceName} \`${name}'`,
      refusal.code,
    )
    if (entry) {
      entry.decision = 'refused'
      entry.explanation = refusal.explanation
      entry.counterfactual = refusal.counterfactual()
      withCounterfactual(error, entry.counterfactual)
    }
    return error
  }
}

/**
 * What one call's endpoint runs with: the request's context, and this call's own warnings and
 * procedures. One object of one shape per call, made with no closures.
 */
class InvocationContext implements CallContext {
  constructor(
    private readonly evaluation: Evaluation,
    private readonly entry: CallTrace | undefined,
    private readonly name: string,
    private readonly frame: Frame,
    private readonly scope: Scope,
  ) {}

  get settings() {
    return this.evaluation.ctx.settings
  }
  get store() {
    return this.evaluation.ctx.store
  }
  get clock() {
    return this.evaluation.ctx.clock
  }
  get signer() {
    return this.evaluation.ctx.signer
  }
  get principal() {
    return this.evaluation.ctx.principal
  }
  setHeader(name: string, value: string): void {
    this.evaluation.ctx.setHeader(name, value)
  }
  sleep(ms: number): Promise<void> {
    return this.evaluation.sleep(ms)
  }
  draw(purpose: 'nonce', length: number): Maybe<Uint8Array> {
    return this.evaluation.draw(purpose, length)
  }
  turn(): Promise<void> | undefined {
    return this.evaluation.turn()
  }
  warn(message: string): void {
    if (this.entry) (this.entry.warnings ??= []).push(message)
  }
  runProc(
    proc: Node,
    input: Input,
    args: Map<string, Input>,
    options?: { elevated?: boolean },
  ): Promise<Input> {
    const { name, frame, scope } = this
    return this.evaluation.runProcOf(proc, input, args, name, frame, scope, options?.elevated)
  }
}

/** Says in the trace what let a call in. */
function grant(
  entry: CallTrace,
  kind: CallTrace['grant'],
  ability: string | null,
  explanation: string,
): void {
  entry.grant = kind
  entry.ability = ability
  entry.explanation = explanation
}

const asJson = (value: Input): Value => (value === NONE ? null : value)

/** Each endpoint's declared arguments, listed once. */
const specs = new WeakMap<Endpoint, Array<[string, ArgSpec]>>()
function specsOf(endpoint: Endpoint): Array<[string, ArgSpec]> {
  let listed = specs.get(endpoint)
  if (!listed) specs.set(endpoint, (listed = Object.entries(endpoint.args ?? {})))
  return listed
}

function required(arg: string, site: string): InvalidError {
  return new InvalidError(`invalid argument \`${arg}' for \`${site}' (is required)`, 'required')
}

function coerced(value: Value, type: TypeName, arg: string, site: string, fromText = true): Value {
  const result = coerce(value, type, fromText)
  if (result === NOT_COERCIBLE) {
    throw new InvalidError(
      `invalid argument \`${arg}' for \`${site}' (given value could not be coerced into the defined type)`,
      'not_coercible',
    )
  }
  return result
}
