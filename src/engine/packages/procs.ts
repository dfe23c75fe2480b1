import { ConflictError, InvalidError, UndefinedError } from '../errors'
import { defineEndpoint, type Endpoint } from '../runtime/endpoint'
import type { Node } from '../lang/tree'
import type { Store } from '../store'
import { nowSeconds } from '../clock'
import { asProcedure, parseValue, toTuples } from '../lang/parser'
import { fromStored, toStored } from '../lang/stored'
import { LIB } from '../settings'

/** Stored procedures are called at `lib.<name>`. */

/** Letters, digits, `_` and `.` between segments; starts with a letter; at most 64 characters. */
export const PROC_NAME = /^(?=.{1,64}$)[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/

function nameOf(call: { name: string; args: { name: string } }): string {
  const { name } = call.args
  if (!PROC_NAME.test(name)) {
    throw new InvalidError(
      `invalid argument \`name' for \`${call.name}' (letters, digits, . and _, starting with a letter, at most 64 characters)`,
    )
  }
  return name
}

function procOf(call: { name: string; procs: { proc: Node } }) {
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
        if (await call.ctx.store.getProc(name)) {
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
        const existing = await call.ctx.store.getProc(name)
        if (!existing) throw missing(name)
        const updatedAt = nowSeconds(call.ctx.clock)
        await call.ctx.store.commit([{ op: 'putProc', proc: { ...existing, proc, updatedAt } }])
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
        if (!(await call.ctx.store.getProc(name))) throw missing(name)
        await call.ctx.store.commit([{ op: 'deleteProc', name }])
        return true
      },
    }),
  ]
}

/** The endpoint for `lib.<name>`, when such a procedure is stored. */
export async function storedProcedure(store: Store, name: string): Promise<Endpoint | undefined> {
  if (!name.startsWith(`${LIB}.`)) return undefined
  const record = await store.getProc(name.slice(LIB.length + 1))
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
