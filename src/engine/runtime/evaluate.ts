import { reaches, reachesTarget } from '../auth/abilities'
import { InvalidError, TimeoutError, UndefinedError, UnauthorizedError } from '../errors'
import type { Json } from '../store'
import type { CallNode, CallRequest, ComposeNode, Node } from './ast'
import type { CallContext, Endpoint, Input, Invocation } from './endpoint'
import { NONE } from './endpoint'
import { coerce, NOT_COERCIBLE, REFERENCE_TYPES, type TypeName } from './types'

/** Finds an endpoint by dotted name: built-in, or a stored procedure. */
export type Resolver = (name: string) => Promise<Endpoint | undefined>

type Lazy = () => Promise<Input>

/** Arguments in scope for `@@`: evaluated on first use, looked up through enclosing scopes. */
class Scope {
  private readonly cache = new Map<string, Promise<Input>>()

  constructor(
    private readonly entries: Map<string, Lazy>,
    private readonly parent?: Scope,
  ) {}

  resolve(name: string): Promise<Input> | undefined {
    const lazy = this.entries.get(name)
    if (!lazy) return this.parent?.resolve(name)
    let value = this.cache.get(name)
    if (!value) {
      value = lazy()
      this.cache.set(name, value)
    }
    return value
  }
}

const EMPTY = new Scope(new Map())

/**
 * One request's evaluation of the tuple language: calls, compositions and references, with
 * every call checked against the caller's abilities and every step against the limits.
 */
export class Evaluation {
  private calls = 0
  private readonly deadline: number

  constructor(
    private readonly ctx: Omit<CallContext, 'sleep' | 'runProc'>,
    private readonly resolveEndpoint: Resolver,
  ) {
    this.deadline = ctx.clock.now() + ctx.settings.limits.timeLimitMs
  }

  /** Runs the call at the request's URL with the request's input and arguments. */
  run(name: string, request: CallRequest): Promise<Input> {
    const scope = this.scopeOf(request.args, EMPTY, name, 0)
    return this.call(
      { kind: 'call', name, input: request.input, args: request.args },
      NONE,
      scope,
      0,
    )
  }

  /** Waits on the engine clock, but never past the time limit. */
  async sleep(ms: number): Promise<void> {
    const remaining = this.deadline - this.ctx.clock.now()
    await this.ctx.clock.sleep(Math.min(ms, Math.max(0, remaining) + 1))
    this.checkTime()
  }

  private checkTime(): void {
    if (this.ctx.clock.now() > this.deadline) {
      throw new TimeoutError(this.ctx.settings.limits.timeLimitMs / 1000)
    }
  }

  private step(depth: number): void {
    const { maxDepth, maxCalls } = this.ctx.settings.limits
    if (depth > maxDepth)
      throw new InvalidError(`the call tree nests deeper than ${maxDepth} levels`, 'too_deep')
    if (++this.calls > maxCalls) {
      throw new InvalidError(`the request makes more than ${maxCalls} calls`, 'too_many_calls')
    }
    this.checkTime()
  }

  private scopeOf(
    args: Map<string, Node>,
    outer: Scope,
    site: string,
    depth: number,
    parent = outer,
  ) {
    const entries = new Map<string, Lazy>()
    for (const [name, node] of args) entries.set(name, () => this.value(node, outer, site, depth))
    return new Scope(entries, parent)
  }

  /** Evaluates a value position: literal, reference, composition or call. */
  private async value(node: Node, scope: Scope, site: string, depth: number): Promise<Input> {
    switch (node.kind) {
      case 'literal':
        return node.value
      case 'compose':
        return this.compose(node, NONE, scope, site, depth + 1)
      case 'call':
        return this.call(node, NONE, scope, depth + 1)
      case 'ref': {
        let value = await scope.resolve(node.name)
        if (value === undefined || value === NONE) {
          if (node.default === undefined) throw required(node.name, site)
          value = await this.value(node.default, scope, site, depth + 1)
        }
        if (node.type === undefined || value === NONE) return value
        if (!REFERENCE_TYPES.includes(node.type as TypeName)) {
          throw new InvalidError(
            `reference \`${node.name}' names an unknown type \`${node.type}'; use one of ${REFERENCE_TYPES.join(', ')}`,
          )
        }
        return coerced(value, node.type as TypeName, node.name, site)
      }
    }
  }

  /**
   * Runs a composition: its own input (or the one piped in), its arguments in a new scope
   * (those in `given` win over its own), then its calls in order, each fed the last output.
   */
  async compose(
    node: ComposeNode,
    piped: Input,
    scope: Scope,
    site: string,
    depth: number,
    given?: Map<string, Input>,
  ): Promise<Input> {
    this.step(depth)
    let current =
      node.input !== undefined ? await this.value(node.input, scope, site, depth) : piped
    const inner = this.scopeOf(node.args, scope, site, depth)
    const scoped = given?.size
      ? new Scope(new Map([...given].map(([name, value]) => [name, async () => value])), inner)
      : inner
    for (const call of node.calls) current = await this.call(call, current, scoped, depth + 1)
    return current
  }

  private async call(node: CallNode, piped: Input, scope: Scope, depth: number): Promise<Input> {
    this.step(depth)
    const { name } = node
    const endpoint = await this.resolveEndpoint(name)
    if (!endpoint) throw new UndefinedError(`undefined ${this.ctx.settings.serviceName} \`${name}'`)
    this.authorize(name)

    const input =
      node.input !== undefined ? await this.value(node.input, scope, name, depth) : piped
    const args: Record<string, Json> = {}
    const procs: Record<string, Node> = {}
    for (const [arg, spec] of Object.entries(endpoint.args ?? {})) {
      const given = node.args.get(arg)
      if (spec.type === 'proc') {
        if (given) procs[arg] = given
        else if (spec.required) throw required(arg, name)
        continue
      }
      const value = given ? await this.value(given, scope, name, depth) : NONE
      if (value !== NONE) args[arg] = coerced(value, spec.type, arg, name)
      else if (spec.default !== undefined) args[arg] = spec.default
      else if (spec.required) throw required(arg, name)
    }

    const service = this.ctx.settings.serviceName
    let accepted: Input = input
    if (endpoint.input) {
      if (input === NONE) {
        if (endpoint.input.required) {
          throw new InvalidError(`${service} \`${name}' does not accept an undefined input`)
        }
      } else {
        const value = coerce(input, endpoint.input.type)
        if (value === NOT_COERCIBLE) {
          throw new InvalidError(`${service} \`${name}' does not accept the given input`)
        }
        accepted = value
      }
    }

    const invocation: Invocation = {
      name,
      input: accepted,
      args,
      procs,
      given: node.args,
      evaluateGiven: async (arg) => {
        const given = node.args.get(arg)
        return given ? this.value(given, scope, name, depth) : NONE
      },
      ctx: {
        ...this.ctx,
        sleep: (ms) => this.sleep(ms),
        runProc: (proc, procInput, procArgs) =>
          this.compose(proc, procInput, EMPTY, name, depth + 1, procArgs),
      },
    }
    if (endpoint.target) this.authorizeTarget(endpoint, invocation)
    return endpoint.run(invocation)
  }

  private authorize(name: string): void {
    const { principal } = this.ctx
    if (principal.kind === 'authorization' && !reaches(principal.abilities, name)) {
      throw this.denied(name)
    }
  }

  private authorizeTarget(endpoint: Endpoint, invocation: Invocation): void {
    const { principal } = this.ctx
    if (principal.kind !== 'authorization') return
    const target = endpoint.target!(invocation)
    if (!reachesTarget(principal.abilities, endpoint.name, target)) throw this.denied(endpoint.name)
  }

  private denied(name: string): UnauthorizedError {
    return new UnauthorizedError(
      `authorization does not have the ability to access ${this.ctx.settings.serviceName} \`${name}'`,
      'missing_ability',
    )
  }
}

function required(arg: string, site: string): InvalidError {
  return new InvalidError(`invalid argument \`${arg}' for \`${site}' (is required)`, 'required')
}

function coerced(value: Json, type: TypeName, arg: string, site: string): Json {
  const result = coerce(value, type)
  if (result === NOT_COERCIBLE) {
    throw new InvalidError(
      `invalid argument \`${arg}' for \`${site}' (given value could not be coerced into the defined type)`,
      'not_coercible',
    )
  }
  return result
}
