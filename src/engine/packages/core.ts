import { InvalidError } from '../errors'
import { literal } from '../lang/tree'
import { asNumber } from '../lang/decimal'
import { asProcedure } from '../lang/parser'
import { defineEndpoint, NONE, type Input } from '../runtime/endpoint'
import { readProgram } from './program'

const orNull = (value: Input) => (value === NONE ? null : value)

/** `core`: liveness, echo, procedures and waiting. */
export const corePackage = [
  defineEndpoint({
    name: 'core.ping',
    summary: 'Answers true: the service is up and the credentials work.',
    run: () => true,
  }),
  defineEndpoint({
    name: 'core.echo',
    summary: 'Returns its input unchanged, null included.',
    input: { type: 'any', required: true },
    run: ({ input }) => orNull(input),
  }),
  defineEndpoint({
    name: 'core.exec',
    summary:
      'Runs `proc` (or a tuple tree, or a compiled program, given as input); other arguments flow into it.',
    input: { type: 'any', required: false },
    args: { proc: { type: 'proc', doc: 'a "{}" composition' } },
    async run({ input, procs, passThrough, ctx }) {
      const passed = await passThrough()
      if (procs.proc) return orNull(await ctx.runProc(procs.proc, input, passed))
      if (input === NONE) {
        throw new InvalidError("`core.exec' runs a procedure: give it as `proc' or as the input")
      }
      // A compiled program runs its exec blocks in order (its procedure blocks only define).
      const program = readProgram(input, ctx.settings.serviceName)
      if (program) {
        let output: Input = null
        for (const object of program) {
          if (!object.deploy) output = await ctx.runProc(literal(object.tuples), NONE, passed)
        }
        return orNull(output)
      }
      // A tuple tree that arrived as data runs; a value already evaluated is the result.
      const tree = literal(input)
      return asProcedure(tree) ? orNull(await ctx.runProc(tree, NONE, passed)) : input
    },
  }),
  defineEndpoint({
    name: 'core.sleep',
    summary: 'Waits `seconds`, then returns its input (null when none); 408 past the time limit.',
    input: { type: 'any', required: false },
    args: { seconds: { type: 'number', required: true, doc: 'how long to wait' } },
    async run({ input, args, ctx }) {
      const seconds = asNumber(args.seconds)
      if (seconds < 0) {
        throw new InvalidError("invalid argument `seconds' for `core.sleep' (must not be negative)")
      }
      await ctx.sleep(seconds * 1000)
      return orNull(input)
    },
  }),
]
