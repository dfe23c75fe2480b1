import { InvalidError } from '../errors'
import { Decimal, Timestamp, type Value } from '../lang/value'
import { defineEndpoint, NONE } from '../runtime/endpoint'

const list = { type: 'array', required: true, doc: 'the array' } as const

/** Ruby's `Array#join`: nested arrays are joined in place, `nil` is empty text. */
function joined(items: Value[], separator: string, site: string, path: string): string {
  return items
    .map((item, i) => {
      if (typeof item === 'string') return item
      if (typeof item === 'number' || typeof item === 'boolean') return String(item)
      if (item instanceof Decimal) return item.text
      if (item === null) return ''
      if (Array.isArray(item)) return joined(item, separator, site, `${path}${i}.`)
      const what = item instanceof Timestamp ? 'a timestamp' : 'an object'
      throw new InvalidError(
        `\`${site}' joins strings, numbers, booleans and nil; element ${path}${i} is ${what}`,
      )
    })
    .join(separator)
}

/** `type.array.build`, `.append`, `.join`, `.value` and `type.hash.value`. */
export const collectionsPackage = [
  defineEndpoint({
    name: 'type.array.build',
    summary: 'An array: the input when it is one, the input as its one element, or empty.',
    input: { type: 'any', required: false },
    run: ({ input }) => (input === NONE ? [] : Array.isArray(input) ? [...input] : [input]),
  }),
  defineEndpoint({
    name: 'type.array.append',
    summary: 'The input array with `value` added at its end.',
    input: list,
    args: { value: { type: 'any', required: true, doc: 'the element to add' } },
    run: ({ input, args }) => [...input, args.value],
  }),
  defineEndpoint({
    name: 'type.array.join',
    summary: 'The elements as one text, `separator` between them (nested arrays joined too).',
    input: list,
    args: { separator: { type: 'string', default: '', doc: 'put between elements' } },
    run: ({ name, input, args }) => joined(input, args.separator, name, ''),
  }),
  defineEndpoint({
    name: 'type.array.value',
    summary: 'The element at `index` (from the end when negative), or null past either end.',
    input: list,
    args: { index: { type: 'integer', required: true, doc: 'from 0; -1 is the last' } },
    run: ({ input, args }) => input.at(args.index) ?? null,
  }),
  defineEndpoint({
    name: 'type.hash.value',
    summary: 'The value of `key` in the input object, or null when it has none.',
    input: { type: 'object', required: true, doc: 'the object' },
    args: { key: { type: 'string', required: true, doc: 'the member to read' } },
    run: ({ input, args }) => (Object.hasOwn(input, args.key) ? input[args.key]! : null),
  }),
]
