import { InvalidError } from '../errors'
import { addDecimals, asDecimal, Decimal, MAX_SUM_DIGITS } from '../lang/decimal'
import { defineEndpoint, type ArgSpecs, type Call, type Endpoint } from '../runtime/endpoint'
import type { Value } from '../lang/value'

/** Characters are code points, as in the real service: surrogate pairs stay whole. */
const characters = (text: string): string[] => Array.from(text)

const text = { type: 'string', required: true, doc: 'the text' } as const

/** A `type.string.<name>` endpoint: its input is the text, `args` type what `run` receives. */
function stringEndpoint<const A extends ArgSpecs = Record<never, never>>(
  name: string,
  summary: string,
  run: (input: string, call: Call<typeof text, A>) => Value,
  args?: A,
): Endpoint {
  return defineEndpoint<typeof text, A>({
    name: `type.string.${name}`,
    summary,
    input: text,
    ...(args ? { args } : {}),
    run: (call) => run(call.input, call),
  })
}

function nonNegative(value: number, arg: string, site: string): number {
  if (value < 0)
    throw new InvalidError(`invalid argument \`${arg}' for \`${site}' (must not be negative)`)
  return value
}

/** `type`: pure functions over strings, numbers and arrays. */
export const typePackage = [
  stringEndpoint('reverse', 'Reverses the text.', (input) => characters(input).reverse().join('')),
  stringEndpoint(
    'capitalize',
    'Upper-cases the first character and lower-cases the rest.',
    (input) => {
      const [first = '', ...rest] = characters(input)
      return first.toUpperCase() + rest.join('').toLowerCase()
    },
  ),
  stringEndpoint('upcase', 'Upper-cases the text.', (input) => input.toUpperCase()),
  stringEndpoint('downcase', 'Lower-cases the text.', (input) => input.toLowerCase()),
  stringEndpoint(
    'truncate',
    'Keeps the first `length` characters.',
    (input, call) =>
      characters(input)
        .slice(0, nonNegative(call.args.length, 'length', call.name))
        .join(''),
    { length: { type: 'integer', required: true, doc: 'how many characters to keep' } },
  ),
  stringEndpoint(
    'append',
    'Appends `value` to the text.',
    (input, call) => input + call.args.value,
    {
      value: { type: 'string', required: true, doc: 'the text to append' },
    },
  ),
  stringEndpoint(
    'length',
    'Counts the characters of the text.',
    (input) => characters(input).length,
  ),
  defineEndpoint({
    name: 'type.number.add',
    summary: 'Adds `value` to the input number; exactly, as a decimal, when either is one.',
    input: { type: 'number', required: true },
    args: { value: { type: 'number', required: true, doc: 'the number to add' } },
    run: ({ input, args }) => {
      if (input instanceof Decimal || args.value instanceof Decimal) {
        const exact = addDecimals(asDecimal(input), asDecimal(args.value))
        if (exact) return exact
        throw new InvalidError(
          `the exact sum in \`type.number.add' would take more than ${MAX_SUM_DIGITS} digits`,
        )
      }
      const sum = input + args.value
      if (!Number.isFinite(sum)) {
        throw new InvalidError("the output of `type.number.add' holds a number out of range")
      }
      // Past 2^53 a double no longer holds every whole number: the sum could be rounded.
      if (Math.abs(sum) > Number.MAX_SAFE_INTEGER) {
        throw new InvalidError(
          `the sum in \`type.number.add' of ${input} and ${args.value} is beyond ±9007199254740991 (2^53 − 1), which the service cannot carry exactly as a number: add them as decimals (MessagePack extension type 0) for an exact sum`,
          'number_inexact',
        )
      }
      return sum
    },
  }),
  defineEndpoint({
    name: 'type.array.flatten',
    summary: 'Flattens nested arrays, `level` levels deep (all of them by default).',
    input: { type: 'array', required: true },
    args: { level: { type: 'integer', doc: 'how many levels to flatten' } },
    run: ({ name, input, args }) => {
      const level = args.level === undefined ? Infinity : nonNegative(args.level, 'level', name)
      // `flat`'s own type recurses too deep over JSON: the elements are JSON all the same.
      return (input as unknown[]).flat(level) as Value[]
    },
  }),
]
