import { describe, expectTypeOf, it } from 'vitest'
import type { Node } from '../lang/tree'
import type { Decimal, Value } from '../lang/value'
import { defineEndpoint, type Call, type Endpoint, type Input, type NONE } from './endpoint'

/** These hold at type-check time (`npm run typecheck` checks tests too). */
describe('defineEndpoint', () => {
  it('types the handler from the declared input and arguments', () => {
    const endpoint = defineEndpoint({
      name: 'x.typed',
      summary: 'A typed endpoint.',
      input: { type: 'string', required: true },
      args: {
        length: { type: 'integer', required: true },
        bucket: { type: 'string', default: 'default' },
        total: { type: 'integer' },
        abilities: { type: 'strings', required: true },
        value: { type: 'any', required: true },
        proc: { type: 'proc', required: true },
        fallback: { type: 'proc' },
      },
      run(call) {
        expectTypeOf(call.input).toEqualTypeOf<string>()
        expectTypeOf(call.args.length).toEqualTypeOf<number>()
        expectTypeOf(call.args.bucket).toEqualTypeOf<string>()
        expectTypeOf(call.args.total).toEqualTypeOf<number | undefined>()
        expectTypeOf(call.args.abilities).toEqualTypeOf<string[]>()
        expectTypeOf(call.args.value).toEqualTypeOf<Value>()
        expectTypeOf(call.procs.proc).toEqualTypeOf<Node>()
        expectTypeOf(call.procs.fallback).toEqualTypeOf<Node | undefined>()
        // @ts-expect-error a `proc` argument is run, never handed over as a value
        void call.args.proc
        // @ts-expect-error an argument the endpoint does not declare is not there
        void call.args.missing
        return null
      },
    })
    expectTypeOf(endpoint).toEqualTypeOf<Endpoint>()
  })

  it('types the input by its spec: optional, or anything when none is declared', () => {
    expectTypeOf<Call<{ type: 'integer'; required: false }>['input']>().toEqualTypeOf<
      number | typeof NONE
    >()
    // A decimal is a number too, kept exact until an endpoint asks for a double.
    expectTypeOf<Call<{ type: 'number'; required: true }>['input']>().toEqualTypeOf<
      number | Decimal
    >()
    expectTypeOf<Call<{ type: 'array'; required: true }>['input']>().toEqualTypeOf<Value[]>()
    expectTypeOf<Call['input']>().toEqualTypeOf<Input>()
    expectTypeOf<Call['args']>().toEqualTypeOf<Record<never, never>>()
  })
})
