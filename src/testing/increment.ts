/**
 * `keyv.set(n, keyv.get(n) + 1)` as one request, in the tuple language: the value argument is
 * a composition that reads the key and adds one, evaluated before the set.
 */
export const INCREMENT = [
  ['$$', 'key', 'n'],
  [
    '$$',
    'value',
    ['{}', ['()', 'keyv.get', ['$$', 'key', 'n']], ['()', 'type.number.add', ['$$', 'value', 1]]],
  ],
]
