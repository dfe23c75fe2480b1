import type { Value } from '../value'
import type { Arguments, Block, Expr, Program, Statement } from './ast'
import {
  compose,
  describeComposed,
  isComposable,
  Serializer,
  UNDEFINED,
  type Argument,
  type Callable,
  type Composed,
  type Composition,
  type MaybeInput,
  wrap,
} from './composer'
import { parsing } from './parser'
import { finish, type Steps } from './steps'
import { RbSyntaxError, type Position } from './syntax-error'

/**
 * Compiles a composer program (Ruby syntax) to tuples: one composition per top-level block,
 * in file order. `exec { … }` gives the composition its block ends with; `proc(name: …,
 * release: …) { … }` gives a composition calling `<service>.deploy` with the name, the
 * release flag (when given) and the block's composition as `proc`. Nothing is run: names,
 * values and references are only written down. Throws `RbSyntaxError` naming the line and
 * column of anything outside the language.
 */
export function compileProgram(source: string, serviceName: string): Value[] {
  return finish(compiling(source, serviceName))
}

/**
 * `compileProgram` in steps (see `steps.ts`): parsing, compiling and writing the tuples stop
 * every few hundred tokens or values, so that `core.compile` takes turns and keeps the time
 * limit as any evaluation does. Linear in the program: a chain is walked in a loop, and
 * composing shares callables rather than copying them.
 */
export function* compiling(source: string, serviceName: string): Steps<Value[]> {
  const program = yield* parsing(source)
  return yield* new Compiler(serviceName).program(program)
}

/**
 * Names a callable answers itself in Ruby (the gem's attributes and methods, and Kernel's),
 * so `x.proc` never builds an endpoint name: `x["proc"]` does.
 */
const OWN_METHODS = new Set([
  'proc',
  'input',
  'arguments',
  'serialize',
  'serialized_input',
  'serialized_arguments',
  'initialize_copy',
  'method_missing',
  'inspect',
  'class',
  'instance_variables',
  'instance_variable_get',
  'instance_variable_set',
  'object_id',
  'public_send',
  'to_hash',
  'instance_eval',
  'instance_exec',
  '__send__',
  '__id__',
])

type Scope = Map<string, Composed>

class Compiler {
  private readonly serializer = new Serializer()

  constructor(private readonly serviceName: string) {}

  *program(program: Program): Steps<Value[]> {
    const scope: Scope = new Map()
    const objects: Value[] = []
    for (const statement of program.statements) {
      yield
      if (statement.kind === 'assign') {
        scope.set(statement.name, yield* this.evaluate(statement.value, [scope]))
        continue
      }
      objects.push(yield* this.block(statement.expr, [scope], statement.at))
    }
    return objects
  }

  /** A top-level `exec { … }` or `proc(…) { … }`, as one object of the program. */
  private *block(expr: Expr, scopes: Scope[], at: Position): Steps<Value> {
    if (expr.kind !== 'name' || (expr.name !== 'exec' && expr.name !== 'proc')) {
      throw new RbSyntaxError(
        at,
        "expected `exec { … }' or `proc(name: …) { … }' at the top level of the program, found an expression: only blocks are sent",
      )
    }
    if (!expr.block) {
      throw new RbSyntaxError(
        expr.at,
        `expected a block after \`${expr.name}', as in \`${expr.name === 'exec' ? 'exec' : 'proc(name: "greet")'} { core.echo("hi") }'`,
      )
    }
    const body = this.composable(yield* this.run(expr.block, scopes), expr.block, expr.name)
    if (expr.name === 'exec') {
      if (expr.args && (expr.args.positional.length > 0 || expr.args.keywords.length > 0)) {
        throw new RbSyntaxError(expr.args.at, "expected `exec { … }' with no arguments")
      }
      return yield* this.serializer.value(body)
    }
    return yield* this.deployment(expr.args, body, scopes)
  }

  /** `proc(name:, release:) { body }` → `{}` with a call to `<service>.deploy`. */
  private *deployment(
    args: Arguments | undefined,
    body: Callable | Composition,
    scopes: Scope[],
  ): Steps<Value> {
    const given = new Map<string, Composed>()
    if (args) {
      if (args.positional.length > 0) {
        throw new RbSyntaxError(
          args.positional[0]!.at,
          "expected `name:' or `release:', found a positional value: `proc(name: \"greet\") { … }'",
        )
      }
      for (const keyword of args.keywords) {
        if (keyword.name !== 'name' && keyword.name !== 'release') {
          throw new RbSyntaxError(
            keyword.at,
            `expected \`name:' or \`release:', found \`${keyword.name}:'`,
          )
        }
        given.set(keyword.name, yield* this.evaluate(keyword.value, scopes))
      }
    }
    const name = given.get('name')
    const release = given.get('release')
    const call: Value = [
      '()',
      `${this.serviceName}.deploy`,
      // An unnamed procedure still goes out, to fail alone when it is deployed.
      ['$$', 'name', name ? yield* this.serializer.value(name) : ['%%', null]],
      ...(release ? [['$$', 'release', yield* this.serializer.value(release)] as Value] : []),
      ['$$', 'proc', yield* this.serializer.value(body)],
    ]
    return ['{}', call]
  }

  private composable(value: Composed, block: Block, what: string): Callable | Composition {
    if (isComposable(value)) return value
    const last = block.statements.at(-1)
    throw new RbSyntaxError(
      last?.at ?? block.at,
      `expected the \`${what}' block to end with a call or a composition, found ${describeComposed(value)}`,
    )
  }

  /** Runs a block's statements in a scope of its own: its value is its last statement's. */
  private *run(block: Block, outer: Scope[]): Steps<Composed> {
    const scopes = [...outer, new Map()]
    let value: Composed | undefined
    for (const statement of block.statements) {
      yield
      value = yield* this.statement(statement, scopes)
    }
    if (value === undefined) {
      throw new RbSyntaxError(block.at, 'expected a call inside the block, found an empty block')
    }
    return value
  }

  private *statement(statement: Statement, scopes: Scope[]): Steps<Composed> {
    if (statement.kind === 'expression') return yield* this.evaluate(statement.expr, scopes)
    const value = yield* this.evaluate(statement.value, scopes)
    // Ruby assigns to the variable of that name in the nearest scope holding it, else this one.
    const holder =
      [...scopes].reverse().find((scope) => scope.has(statement.name)) ?? scopes.at(-1)!
    holder.set(statement.name, value)
    return value
  }

  /**
   * What an expression stands for. Recursion follows the nesting the parser bounds; a chain
   * (`a.b(…)[…] >> c`, nested to the left as long as it goes on) is walked in a loop.
   */
  private *evaluate(expr: Expr, scopes: Scope[]): Steps<Composed> {
    const at = expr.at
    switch (expr.kind) {
      case 'string':
      case 'integer':
      case 'float':
      case 'boolean':
        return { kind: 'scalar', value: expr.value, at }
      case 'nil':
        return { kind: 'scalar', value: null, at }
      case 'symbol':
        return { kind: 'symbol', name: expr.name, at }
      case 'array': {
        const items: Composed[] = []
        for (const item of expr.items) items.push(yield* this.evaluate(item, scopes))
        return { kind: 'array', items, at }
      }
      case 'hash': {
        const entries: Array<[string, Composed]> = []
        for (const entry of expr.entries) {
          entries.push([entry.key, yield* this.evaluate(entry.value, scopes)])
        }
        return { kind: 'hash', entries, at }
      }
      case 'group':
        return yield* this.evaluate(expr.expr, scopes)
      case 'variable': {
        const value = [...scopes]
          .reverse()
          .find((scope) => scope.has(expr.name))
          ?.get(expr.name)
        if (!value) {
          throw new RbSyntaxError(
            at,
            `expected \`${expr.name}' to hold a value, found it used in its own assignment`,
          )
        }
        return value
      }
      case 'name':
        return yield* this.name(expr, scopes)
      case 'send':
      case 'index':
      case 'pipe':
        return yield* this.chain(expr, scopes)
    }
  }

  /** A chain, from the innermost target out, one link at a time. */
  private *chain(expr: Link, scopes: Scope[]): Steps<Composed> {
    const links: Link[] = []
    let base: Expr = expr
    while (base.kind === 'send' || base.kind === 'index' || base.kind === 'pipe') {
      links.push(base)
      base = base.kind === 'pipe' ? base.left : base.target
    }
    let value = yield* this.evaluate(base, scopes)
    for (let i = links.length - 1; i >= 0; i--) {
      if (i % 64 === 0) yield
      const link = links[i]!
      if (link.kind === 'send') value = yield* this.send(link, value, scopes)
      else if (link.kind === 'index') value = yield* this.index(link, value, scopes)
      else value = yield* this.pipe(link, value, scopes)
    }
    return value
  }

  /** `left >> right` (and `|`, `.|`, `.>>`), `left` already evaluated. */
  private *pipe(
    expr: Extract<Expr, { kind: 'pipe' }>,
    left: Composed,
    scopes: Scope[],
  ): Steps<Composed> {
    const right = yield* this.evaluate(expr.right, scopes)
    if (!isComposable(left)) {
      throw new RbSyntaxError(
        expr.left.at,
        `expected a call or a composition before \`${expr.op}', found ${describeComposed(left)}`,
      )
    }
    if (!isComposable(right)) {
      throw new RbSyntaxError(
        expr.right.at,
        `expected a call or a composition after \`${expr.op}', found ${describeComposed(right)}`,
      )
    }
    return compose(left, right, expr.at)
  }

  /** A bare name: `arg(…)`, or the first segment of a callable (`core`, `type`, `proc`). */
  private *name(expr: Extract<Expr, { kind: 'name' }>, scopes: Scope[]): Steps<Composed> {
    if (expr.name === 'arg' || expr.name === 'argument') return yield* this.argument(expr, scopes)
    if (expr.name === 'exec' || (expr.name === 'proc' && (expr.args || expr.block))) {
      throw new RbSyntaxError(
        expr.at,
        `expected a call, found \`${expr.name}${expr.name === 'proc' ? '(…)' : ''} { … }': blocks stand at the top level of the program`,
      )
    }
    const { input, args } = yield* this.given(expr.args, expr.block, scopes)
    return { kind: 'callable', name: expr.name, input, args, at: expr.at }
  }

  private *argument(expr: Extract<Expr, { kind: 'name' }>, scopes: Scope[]): Steps<Argument> {
    const usage = `\`${expr.name}(:name, default: …, type: …)'`
    const [name, extra] = expr.args?.positional ?? []
    if (!name || extra || expr.block) {
      throw new RbSyntaxError(extra?.at ?? expr.block?.at ?? expr.at, `expected ${usage}`)
    }
    if (name.kind !== 'symbol' && name.kind !== 'string') {
      throw new RbSyntaxError(
        name.at,
        `expected the argument's name as a symbol, found something else: ${usage}`,
      )
    }
    const options = new Map<string, Composed>()
    for (const keyword of expr.args!.keywords) {
      if (keyword.name !== 'default' && keyword.name !== 'type') {
        throw new RbSyntaxError(
          keyword.at,
          `expected \`default:' or \`type:', found \`${keyword.name}:'`,
        )
      }
      options.set(keyword.name, yield* this.evaluate(keyword.value, scopes))
    }
    return {
      kind: 'argument',
      name: name.kind === 'symbol' ? name.name : name.value,
      options,
      at: expr.at,
    }
  }

  /** `target.name(…) { … }`, `target` already evaluated: a longer callable, or `.with` / `.compose`. */
  private *send(
    expr: Extract<Expr, { kind: 'send' }>,
    target: Composed,
    scopes: Scope[],
  ): Steps<Composed> {
    if (expr.name === 'with' && isComposable(target)) return yield* this.with(target, expr, scopes)
    if (expr.name === 'compose' && isComposable(target)) {
      if (expr.block || expr.args?.keywords.length) {
        throw new RbSyntaxError(expr.at, "expected `.compose(other, …)' with calls only")
      }
      let composed: Composition | Callable = target
      for (const other of expr.args?.positional ?? []) {
        yield
        const value = yield* this.evaluate(other, scopes)
        if (!isComposable(value)) {
          throw new RbSyntaxError(
            other.at,
            `expected a call or a composition to compose, found ${describeComposed(value)}`,
          )
        }
        composed = compose(composed, value, other.at)
      }
      return composed.kind === 'callable' ? wrap(composed) : composed
    }
    if (target.kind !== 'callable') {
      const what =
        target.kind === 'composition'
          ? "only `.with', `.compose', `.|' and `>>' follow a composition"
          : 'only calls have methods in the language'
      throw new RbSyntaxError(
        expr.at,
        `expected a call before \`.${expr.name}', found ${describeComposed(target)}: ${what}`,
      )
    }
    if (OWN_METHODS.has(expr.name)) {
      throw new RbSyntaxError(
        expr.at,
        `expected an endpoint name, found \`${expr.name}', which a callable answers itself in Ruby: write \`${target.name}["${expr.name}"]'`,
      )
    }
    const { input, args } = yield* this.given(expr.args, expr.block, scopes, target)
    return { kind: 'callable', name: `${target.name}.${expr.name}`, input, args, at: target.at }
  }

  /** `target["name"] { … }`, `target` already evaluated: a longer callable, any name. */
  private *index(
    expr: Extract<Expr, { kind: 'index' }>,
    target: Composed,
    scopes: Scope[],
  ): Steps<Composed> {
    if (target.kind !== 'callable') {
      throw new RbSyntaxError(
        expr.at,
        `expected a call before \`[…]', found ${describeComposed(target)}`,
      )
    }
    const key = yield* this.evaluate(expr.key, scopes)
    const name =
      key.kind === 'symbol'
        ? key.name
        : key.kind === 'scalar' && typeof key.value === 'string'
          ? key.value
          : undefined
    if (name === undefined) {
      throw new RbSyntaxError(
        expr.key.at,
        `expected a name in \`[…]', found ${describeComposed(key)}`,
      )
    }
    const { input, args } = yield* this.given(undefined, expr.block, scopes, target)
    return { kind: 'callable', name: `${target.name}.${name}`, input, args, at: target.at }
  }

  /** `.with(input, name: value) { block }` on a callable or a composition. */
  private *with(
    target: Callable | Composition,
    expr: Extract<Expr, { kind: 'send' }>,
    scopes: Scope[],
  ): Steps<Composed> {
    const { input, args } = yield* this.given(expr.args, expr.block, scopes, target)
    return { ...target, input, args }
  }

  /**
   * The input and arguments a call is given, over those of what it extends: a new input
   * replaces the old, arguments merge (the new win), a block becomes the `proc` argument.
   */
  private *given(
    given: Arguments | undefined,
    block: Block | undefined,
    scopes: Scope[],
    base?: Callable | Composition,
  ): Steps<{ input: MaybeInput; args: Map<string, Composed> }> {
    const [first, extra] = given?.positional ?? []
    if (extra) {
      throw new RbSyntaxError(
        extra.at,
        "expected one input: a call takes one positional value, then `name: value' keywords",
      )
    }
    const input = first ? yield* this.evaluate(first, scopes) : (base?.input ?? UNDEFINED)
    const args = new Map(base?.args)
    for (const keyword of given?.keywords ?? []) {
      args.set(keyword.name, yield* this.evaluate(keyword.value, scopes))
    }
    if (block) args.set('proc', yield* this.run(block, scopes))
    return { input, args }
  }
}

/** An expression that goes on from the one to its left. */
type Link = Extract<Expr, { kind: 'send' | 'index' | 'pipe' }>
