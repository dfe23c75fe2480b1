import { InvalidError } from '../errors'
import { defineEndpoint, NONE } from '../runtime/endpoint'

/** `core`: liveness, echo and waiting. */
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
    run: ({ input }) => (input === NONE ? null : input),
  }),
  defineEndpoint({
    name: 'core.sleep',
    summary: 'Waits `seconds`, then returns its input (null when none); 408 past the time limit.',
    input: { type: 'any', required: false },
    args: { seconds: { type: 'number', required: true, doc: 'how long to wait' } },
    async run({ input, args, ctx }) {
      const seconds = args.seconds as number
      if (seconds < 0) {
        throw new InvalidError("invalid argument `seconds' for `core.sleep' (must not be negative)")
      }
      await ctx.sleep(seconds * 1000)
      return input === NONE ? null : input
    },
  }),
]
