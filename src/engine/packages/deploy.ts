import { nowSeconds } from '../clock'
import { InvalidError, ServiceError } from '../errors'
import { toTuples } from '../lang/parser'
import { literal, type CallNode, type Node } from '../lang/tree'
import type { Value } from '../lang/value'
import {
  defineEndpoint,
  NONE,
  type CallContext,
  type Endpoint,
  type Input,
} from '../runtime/endpoint'
import { PROC_NAME, procOf, release } from './procs'
import { readProgram, type ProgramObject } from './program'
import { linkOf, readRelease, recordName } from '../stages'

/** Errors about the whole request, not one object of it: they end `core.deploy` too. */
const REQUEST_WIDE = new Set([
  'timeout',
  'too_deep',
  'too_many_calls',
  'value_too_large',
  'rate_limited',
])

const failsAlone = (error: unknown): error is ServiceError =>
  error instanceof ServiceError && error.status < 500 && !REQUEST_WIDE.has(error.code)

/**
 * `<service>.deploy(name, proc, release)`: stores `proc` in the dev stage of `name` (called at
 * `lib.<name>:dev`, and at `lib.<name>` while nothing is released), or, with `release`, as its
 * release. Answers the link, as the real service writes it: `proc.run/lib/greet:dev`.
 * Insecure, as `.create` is. 400 for a name that is not one, with the real service's words.
 */
export function deployPackage(serviceName: string): Endpoint[] {
  return [
    defineEndpoint({
      name: `${serviceName}.deploy`,
      summary:
        'Stores a procedure in its dev stage (lib.<name>:dev), or released (lib.<name>); answers its link.',
      insecure: true,
      args: {
        name: { type: 'any', required: true, doc: 'called as lib.<name>' },
        proc: { type: 'proc', required: true, doc: 'a "{}" composition' },
        release: { type: 'any', doc: 'true (or "true") to release it; the dev stage otherwise' },
      },
      async run(call) {
        const { name } = call.args
        if (typeof name !== 'string' || !PROC_NAME.test(name)) {
          throw new InvalidError(
            `invalid argument \`name' for \`${call.name}' (must contain only alphanumeric characters; \`.' and \`_' are allowed)`,
          )
        }
        const released = readRelease(call.args.release, call.name)
        const proc = procOf(call)
        const { store, clock, settings } = call.ctx
        const now = nowSeconds(clock)
        if (released) {
          await release(store, name, proc, now)
        } else {
          const dev = recordName(name, 'dev')
          const earlier = (await store.getProc(dev)) ?? (await store.getProc(name))
          const createdAt = earlier?.createdAt ?? now
          await store.commit([
            { op: 'putProc', proc: { name: dev, proc, createdAt, updatedAt: now } },
          ])
        }
        return linkOf(settings.baseUrl, name, released ? 'release' : 'dev')
      },
    }),
  ]
}

/**
 * `core.deploy`: deploys a compiled program (its input, as `core.compile` answers it, or
 * `objects`). Objects run in order: an `exec` block runs and gives its output, a `proc` block
 * is stored by `<service>.deploy` and gives its link; `release: true` releases every one. The
 * first object that fails ends the deploy, its own writes undone, those before it kept. 400
 * when no object deploys a procedure.
 */
export const deployCore = defineEndpoint({
  name: 'core.deploy',
  summary: 'Deploys a compiled program: runs its exec blocks and stores its procedures, in order.',
  input: { type: 'any', required: false },
  args: {
    objects: { type: 'array', doc: 'the compiled program, when it is not the input' },
    release: { type: 'any', doc: 'true releases every procedure; the dev stage otherwise' },
  },
  async run({ name, input, args, passThrough, ctx }) {
    const given = args.objects ?? (input === NONE ? undefined : input)
    if (given === undefined) {
      throw new InvalidError(`invalid argument \`objects' for \`${name}' (is required)`, 'required')
    }
    const objects = readProgram(given, ctx.settings.serviceName)
    if (!objects?.some((object) => object.deploy)) {
      throw new InvalidError(
        `invalid argument \`objects' for \`${name}' (does not have any deployable objects)`,
      )
    }
    const released = readRelease(args.release, name)
    const passed = await passThrough()
    const results: Value[] = []
    for (const object of objects) {
      const undo = ctx.store.savepoint?.()
      const result = await deployOne(object, released, passed, ctx)
      results.push(result.value)
      if (result.failed) {
        undo?.()
        break
      }
    }
    return results
  },
})

interface Outcome {
  value: Value
  failed?: true
}

/** Data is run as data: with the caller's authority, even inside a stored procedure. */
const runData = (ctx: CallContext, node: Node, passed: Map<string, Input>) =>
  ctx.runProc(literal(toTuples(node)), NONE, passed)

async function deployOne(
  object: ProgramObject,
  released: boolean,
  passed: Map<string, Input>,
  ctx: CallContext,
): Promise<Outcome> {
  const type = object.deploy ? 'proc' : 'exec'
  let name: Value = null
  try {
    if (!object.deploy) {
      const output = await ctx.runProc(literal(object.tuples), NONE, passed)
      return { value: { status: 'ok', type, output: output === NONE ? null : output } }
    }
    name = await evaluatedName(object.deploy, passed, ctx)
    const args = new Map(object.deploy.args)
    args.set('name', literal(name))
    if (released) args.set('release', literal(true))
    const call: CallNode = { ...object.deploy, args }
    const link = await runData(ctx, { kind: 'compose', args: new Map(), calls: [call] }, passed)
    return { value: { status: 'ok', type, name, link: link === NONE ? null : link } }
  } catch (error) {
    if (!failsAlone(error)) throw error
    const value: Value = object.deploy
      ? {
          status: 'failed',
          type,
          name: typeof name === 'string' ? name : null,
          error: error.message,
        }
      : { status: 'failed', type, error: error.message }
    return { value, failed: true }
  }
}

/** The `name` a deployable object gives, evaluated once: what its result reports. */
async function evaluatedName(call: CallNode, passed: Map<string, Input>, ctx: CallContext) {
  const node = call.args.get('name')
  if (!node) return null
  const value = await runData(
    ctx,
    { kind: 'compose', input: node, args: new Map(), calls: [] },
    passed,
  )
  return value === NONE ? null : value
}
