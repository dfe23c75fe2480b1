/**
 * What a real client sends and what the real service answers, as data: the engine's tests run
 * each case through `handle`, and the server's over HTTP in every tuple format. Messages are
 * written for the service name `proc`, the real service's own.
 */
export interface FidelityCase {
  title: string
  endpoint: string
  /** The tuple body. */
  body: unknown[]
  query?: Record<string, string>
  status: number
  /** The answer's value, on a 200. */
  result?: unknown
  /** The error message, exactly; or a pattern it must match. */
  message?: string | RegExp
}

const named = [
  '{}',
  ['>>', ['@@', 'who', {}]],
  ['$$', 'who', ['%%', 'ada']],
  ['()', 'type.string.reverse'],
]
const echoAda = ['{}', ['()', 'core.echo', ['>>', ['%%', 'ada']]]]
const integerRef = {
  type: ['%%', 'integer'],
  default: ['()', 'core.echo', ['>>', ['%%', 2]]],
}

export const fidelityCases: FidelityCase[] = [
  {
    title: "a composition's own arguments are in scope for its own input (core.exec)",
    endpoint: 'core.exec',
    body: [['$$', 'proc', named]],
    status: 200,
    result: 'ada',
  },
  {
    title: "a composition's own arguments are in scope for its own input (as an input)",
    endpoint: 'core.echo',
    body: [['>>', named]],
    status: 200,
    result: 'ada',
  },
  {
    title: 'an argument given to the enclosing call still beats the composition’s own',
    endpoint: 'core.exec',
    body: [
      ['$$', 'proc', named],
      ['$$', 'who', 'grace'],
    ],
    status: 200,
    result: 'ecarg',
  },
  {
    title: 'an argument whose value is a composition is evaluated before use',
    endpoint: 'type.string.reverse',
    body: [
      ['>>', ['@@', 'who']],
      ['$$', 'who', echoAda],
    ],
    status: 200,
    result: 'ada',
  },
  {
    title: 'an evaluated argument is seen by a composition’s input',
    endpoint: 'core.exec',
    body: [
      ['$$', 'proc', ['{}', ['>>', ['@@', 'who']], ['()', 'type.string.capitalize']]],
      ['$$', 'who', echoAda],
    ],
    status: 200,
    result: 'Ada',
  },
  {
    title: 'reference options are values: a call as default, a literal as type',
    endpoint: 'core.echo',
    body: [['>>', ['@@', 'n', integerRef]]],
    status: 200,
    result: 2,
  },
  {
    title: 'a reference’s type read from a literal coerces text ("1" → 1)',
    endpoint: 'core.echo',
    body: [
      ['>>', ['@@', 'n', integerRef]],
      ['$$', 'n', '1'],
    ],
    status: 200,
    result: 1,
  },
  {
    title: 'a reference’s type must name a type',
    endpoint: 'core.echo',
    body: [
      ['>>', ['@@', 'n', { type: ['%%', 'integers'] }]],
      ['$$', 'n', 1],
    ],
    status: 400,
    message: /^reference `n' names an unknown type `integers'; use one of any, string/,
  },
  {
    title: 'a composition with no input receives the value flowing into the call it feeds',
    endpoint: 'core.exec',
    body: [
      [
        '$$',
        'proc',
        [
          '{}',
          ['>>', ['%%', 'oof']],
          [
            '()',
            'core.echo',
            ['>>', ['{}', ['()', 'type.string.capitalize'], ['()', 'type.string.reverse']]],
          ],
        ],
      ],
    ],
    status: 200,
    result: 'foO',
  },
  {
    title: 'at the top level, a composition with no input receives none',
    endpoint: 'core.echo',
    body: [['>>', ['{}', ['()', 'type.string.reverse']]]],
    status: 400,
    message: "proc `type.string.reverse' does not accept an undefined input",
  },
  {
    title: 'the input’s type is checked before the arguments',
    endpoint: 'type.string.truncate',
    body: [['>>', ['%%', [1, 2]]]],
    status: 400,
    message: "proc `type.string.truncate' does not accept the given input",
  },
  {
    title: 'then a missing argument',
    endpoint: 'type.string.truncate',
    body: [['>>', 'foo']],
    status: 400,
    message: "invalid argument `length' for `type.string.truncate' (is required)",
  },
  {
    title: 'an object input supplies the arguments of an endpoint that takes no input',
    endpoint: 'keyv.scan',
    body: [['>>', ['%%', { bucket: 'empty', count: 'many' }]]],
    status: 400,
    message:
      "invalid argument `count' for `keyv.scan' (given value could not be coerced into the defined type)",
  },
  {
    title: 'an explicit argument wins over the object input’s member',
    endpoint: 'keyv.scan',
    body: [
      ['>>', ['%%', { bucket: 'empty', count: 'many' }]],
      ['$$', 'count', 5],
    ],
    status: 200,
    result: [],
  },
  {
    title: 'an endpoint that takes an input does not read its members as arguments',
    endpoint: 'type.number.add',
    body: [['>>', ['%%', { value: 1 }]]],
    status: 400,
    message: "proc `type.number.add' does not accept the given input",
  },
  {
    title: 'an argument keeps its declared type: a string is not a list of abilities',
    endpoint: 'auth.create',
    body: [['$$', 'abilities', 'type']],
    status: 400,
    message:
      "invalid argument `abilities' for `auth.create' (given value could not be coerced into the defined type)",
  },
  {
    title: 'an argument keeps its declared type: a string is not an integer',
    endpoint: 'type.string.truncate',
    body: [
      ['>>', 'foo'],
      ['$$', 'length', '2'],
    ],
    status: 400,
    message:
      "invalid argument `length' for `type.string.truncate' (given value could not be coerced into the defined type)",
  },
  {
    title: 'query-string arguments are text, read into the declared type',
    endpoint: 'type.string.truncate',
    body: [['>>', 'foo']],
    query: { length: '2' },
    status: 200,
    result: 'fo',
  },
  {
    title: 'an undefined endpoint in a known package suggests its neighbours',
    endpoint: 'type.string.missing',
    body: [],
    status: 404,
    message:
      /^undefined proc `type\.string\.missing'; try one of: `type\.string\.append', `type\.string\.capitalize', /,
  },
  {
    title: 'a name under no known package is undefined, plainly',
    endpoint: 'foo.bar.baz',
    body: [],
    status: 404,
    message: "undefined proc `foo.bar.baz'",
  },
]
