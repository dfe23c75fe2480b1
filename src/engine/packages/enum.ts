import { defineEndpoint, NONE } from '../runtime/endpoint'
import type { Value } from '../lang/value'

/** `enum`: procedures over every element of an array. */
export const enumPackage = [
  defineEndpoint({
    name: 'enum.map',
    summary: 'Runs `proc` on every element of the input array; returns the outputs.',
    input: { type: 'array', required: true, doc: 'the elements' },
    args: { proc: { type: 'proc', required: true, doc: 'a composition run per element' } },
    async run(call) {
      const passed = await call.passThrough()
      const outputs: Value[] = []
      for (const element of call.input) {
        const output = await call.ctx.runProc(call.procs.proc, element, passed)
        outputs.push(output === NONE ? null : output)
      }
      return outputs
    },
  }),
]
