import { ConflictError, InvalidError, UndefinedError } from '../errors'
import { defineEndpoint, type Endpoint } from '../runtime/endpoint'
import type { Node } from '../lang/tree'
import type { Json, Store } from '../store'
import { nowSeconds } from '../clock'
import { asProcedure, parseValue, toTuples } from '../lang/parser'
import { fromStored, toStored } from '../lang/stored'
import { LIB } from '../settings'
import { calledStage, lookupOrder, recordName } from '../stages'

/** Stored procedures are called at `lib.<name>`. */

/** Letters, digits, `_` and `.` between segments; starts with a letter; at most 64 characters. */
export const PROC_NAME = /^(?=.{1,64}$)[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/

/** A stored record's name: a procedure's name, with `:dev` for its dev stage (`stages.ts`). */
export const RECORD_NAME = /^(?=.{1,64}(:dev)?$)[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*(:dev)?$/

function nameOf(call: { name: string; args: { name: string } }): string {
  const { name } = call.args
  if (!PROC_NAME.test(name)) {
    throw new InvalidError(
      `invalid argument \`name' for \`${call.name}' (letters, digits, . and _, starting with a letter, at most 64 characters)`,
    )
  }
  return name
}

/** The `proc` argument as stored: tuples, every literal as `%%`; a 400 unless it is a procedure. */
export function procOf(call: { name: string; procs: { proc: Node } }) {
  const proc = asProcedure(call.procs.proc)
  if (!proc) {
    throw new InvalidError(
      `invalid argument \`proc' for \`${call.name}' (must be a "{}" composition or a "()" call)`,
    )
  }
  return toStored(toTuples(proc))
}

const nameArg = { type: 'string', required: true, doc: 'called as lib.<name>' } as const
const procArg = { type: 'proc', required: true, doc: 'a "{}" composition' } as const

/**
 * `<service>.create`, `.update`, `.delete`: manage stored procedures. Insecure: a procedure
 * runs with the account's full authority. 409 when creating a name that exists; 404 when
 * updating or deleting one that does not.
 */
export function procsPackage(serviceName: string): Endpoint[] {
  const missing = (name: string) => new UndefinedError(`undefined ${serviceName} \`${LIB}.${name}'`)
  return [
    defineEndpoint({
      name: `${serviceName}.create`,
      summary: 'Stores a procedure, called afterwards at lib.<name>.',
      insecure: true,
      args: { name: nameArg, proc: procArg },
      async run(call) {
        const name = nameOf(call)
        const proc = procOf(call)
        if (await anyStage(call.ctx.store, name)) {
          throw new ConflictError(
            `stored procedure \`${LIB}.${name}' already exists; use ${serviceName}.update`,
          )
        }
        const now = nowSeconds(call.ctx.clock)
        await call.ctx.store.commit([
          { op: 'putProc', proc: { name, proc, createdAt: now, updatedAt: now } },
        ])
        return true
      },
    }),
    defineEndpoint({
      name: `${serviceName}.update`,
      summary: 'Replaces a stored procedure.',
      insecure: true,
      args: { name: nameArg, proc: procArg },
      async run(call) {
        const name = nameOf(call)
        const proc = procOf(call)
        const existing = await anyStage(call.ctx.store, name)
        if (!existing) throw missing(name)
        await release(call.ctx.store, name, proc, nowSeconds(call.ctx.clock))
        return true
      },
    }),
    defineEndpoint({
      name: `${serviceName}.delete`,
      summary: 'Deletes a stored procedure.',
      insecure: true,
      args: { name: nameArg },
      async run(call) {
        const name = nameOf(call)
        if (!(await anyStage(call.ctx.store, name))) throw missing(name)
        const records = [name, recordName(name, 'dev')]
        const held = await Promise.all(records.map((record) => call.ctx.store.getProc(record)))
        await call.ctx.store.commit(
          records.filter((_, i) => held[i]).map((record) => ({ op: 'deleteProc', name: record })),
        )
        return true
      },
    }),
  ]
}

/** The stored record of either stage of `name`, the release first. */
async function anyStage(store: Store, name: string) {
  return (await store.getProc(name)) ?? (await store.getProc(recordName(name, 'dev')))
}

/**
 * Makes `proc` the release of `name` (as `.create`, `.update` and a released deploy do): the
 * dev stage, if any, goes, so that both stages call the release.
 */
export async function release(store: Store, name: string, proc: Json, now: number): Promise<void> {
  const dev = recordName(name, 'dev')
  const [existing, staged] = await Promise.all([store.getProc(name), store.getProc(dev)])
  const createdAt = existing?.createdAt ?? staged?.createdAt ?? now
  await store.commit([
    { op: 'putProc', proc: { name, proc, createdAt, updatedAt: now } },
    ...(staged ? [{ op: 'deleteProc' as const, name: dev }] : []),
  ])
}

/**
 * The endpoint for `lib.<name>` (the release, else the dev stage) or `lib.<name>:dev` (the dev
 * stage, else the release), when one is stored.
 */
export async function storedProcedure(store: Store, name: string): Promise<Endpoint | undefined> {
  const called = calledStage(name)
  if (!called || !PROC_NAME.test(called.name)) return undefined
  let record
  for (const stored of lookupOrder(called.name, called.stage)) {
    record = await store.getProc(stored)
    if (record) break
  }
  if (!record) return undefined
  return {
    name,
    summary: 'A stored procedure.',
    input: { type: 'any', required: false },
    async run(call) {
      const output = await call.ctx.runProc(
        parseValue(fromStored(record.proc)),
        call.input,
        await call.passThrough(),
        {
          elevated: true,
        },
      )
      return typeof output === 'symbol' ? null : output
    },
  }
}
