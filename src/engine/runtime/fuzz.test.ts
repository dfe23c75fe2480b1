import { decode, encode, ExtData } from '@msgpack/msgpack'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createHarness } from '../../testing/engine-harness'
import { sendMsgpack } from '../../testing/msgpack-bytes'

/**
 * Random tuple trees, bodies and headers: whatever arrives, the engine answers a well-formed
 * response with a 2xx or 4xx status, within the time limit, and never faults.
 */
const names = [
  'core.ping',
  'core.echo',
  'core.exec',
  'core.sleep',
  'enum.map',
  'type.string.reverse',
  'type.string.truncate',
  'type.string.append',
  'type.number.add',
  'type.array.flatten',
  'keyv.set',
  'keyv.get',
  'keyv.delete',
  'keyv.scan',
  'auth.create',
  'service.create',
  'service.update',
  'service.delete',
  'lib.x',
  'lib.y.z',
  'no.such',
  '',
  'a..b',
  '_account.reset',
]
/** Names called at a URL; `_account/...` is the control plane there, so only inner calls try it. */
const urlNames = names.filter((name) => !name.startsWith('_account'))
const argNames = [
  'value',
  'length',
  'proc',
  'seconds',
  'abilities',
  'key',
  'bucket',
  'count',
  'cursor',
  'total',
  'name',
  'level',
  'x',
  'ttl',
  'expiry',
  'insecure',
]
const markers = ['>>', '$$', '%%', '()', '{}', '@@', '<<', '!!']

const json = fc.jsonValue({ maxDepth: 3 })

const typeNames = fc.constantFrom(
  'any',
  'integer',
  'string',
  'number',
  'boolean',
  'array',
  'object',
  'nope',
)

/** A type name as a reference option may give it: bare, a literal, a call's or a composition's output. */
const typeOption = (node: fc.Arbitrary<unknown>) =>
  fc.oneof(
    typeNames,
    typeNames.map((type) => ['%%', type]),
    typeNames.map((type) => ['()', 'core.echo', ['>>', ['%%', type]]]),
    typeNames.map((type) => ['()', 'type.string.downcase', ['>>', type]]),
    typeNames.map((type) => ['{}', ['>>', ['%%', type]], ['()', 'core.echo']]),
    typeNames.map((type) => ['{}', ['$$', 't', type], ['>>', ['@@', 't']]]),
    node,
  )

/**
 * Tuple trees over `leaf` values: literals, calls, references whose `type` and `default` are
 * values of their own, and compositions nested as inputs and as arguments.
 */
function trees(leaf: fc.Arbitrary<unknown>) {
  return fc.letrec<{
    node: unknown
    operand: unknown
    tuple: unknown
    call: unknown
    compose: unknown
  }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.tuple(fc.constant('%%'), leaf),
      tie('call'),
      tie('compose'),
      fc
        .record({
          name: fc.constantFrom(...argNames),
          default: fc.option(tie('node')),
          type: fc.option(typeOption(tie('node'))),
        })
        .map(({ name, default: fallback, type }) => [
          '@@',
          name,
          {
            ...(fallback !== null ? { default: fallback } : {}),
            ...(type !== null ? { type } : {}),
          },
        ]),
      fc.array(fc.oneof(fc.constantFrom(...markers), leaf), { maxLength: 4 }),
    ),
    /** An input or argument, a composition more often than among nodes at large. */
    operand: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('node'), tie('compose')),
    tuple: fc.oneof(
      fc.tuple(fc.constant('>>'), tie('node')),
      fc.tuple(fc.constant('$$'), fc.constantFrom(...argNames), tie('node')),
      tie('call'),
    ),
    compose: fc.oneof(
      // Tuples in any order and number, as a careless client might send them.
      fc.array(tie('tuple'), { maxLength: 4 }).map((tuples) => ['{}', ...tuples]),
      // Well formed: an input, arguments, then calls; a composition in each position.
      fc
        .record({
          input: fc.option(tie('operand')),
          args: fc.array(
            fc.tuple(fc.constant('$$'), fc.constantFrom(...argNames), tie('operand')),
            { maxLength: 2 },
          ),
          calls: fc.array(tie('call'), { maxLength: 3 }),
        })
        .map(({ input, args, calls }) => [
          '{}',
          ...(input !== null ? [['>>', input]] : []),
          ...args,
          ...calls,
        ]),
    ),
    call: fc
      .tuple(
        fc.constantFrom(...names),
        fc.array(
          fc.oneof(
            fc.tuple(fc.constant('>>'), tie('operand')),
            fc.tuple(fc.constant('$$'), fc.constantFrom(...argNames), tie('operand')),
          ),
          { maxLength: 3 },
        ),
      )
      .map(([name, tuples]) => ['()', name, ...tuples]),
  }))
}

/** Request bodies: tuples at the top, bare nodes, or any JSON. */
function bodies(leaf: fc.Arbitrary<unknown>) {
  const { node } = trees(leaf)
  return fc.oneof(
    fc.array(
      fc.oneof(
        fc.tuple(fc.constant('>>'), node),
        fc.tuple(fc.constant('$$'), fc.constantFrom(...argNames), node),
      ),
      { maxLength: 4 },
    ),
    fc.array(node, { maxLength: 3 }),
    leaf,
  )
}

const utf8 = (text: string) => new TextEncoder().encode(text)

/** MessagePack extensions, as the Ruby client sends them, and malformed or unknown ones. */
const extensions = fc.oneof(
  fc
    .oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
      fc.constantFrom('0.100000000000043298349238472398e15', '0.1e400', '0.1e-800', '-0.0', 'NaN'),
    )
    .map((text) => new ExtData(0, utf8(text))),
  fc.uint8Array({ minLength: 4, maxLength: 4 }).map((data) => new ExtData(-1, data)),
  fc.uint8Array({ minLength: 8, maxLength: 8 }).map((data) => new ExtData(-1, data)),
  fc.uint8Array({ minLength: 12, maxLength: 12 }).map((data) => new ExtData(-1, data)),
  fc.integer({ min: -128, max: 127 }).map((type) => new ExtData(type, new Uint8Array(3))),
)

/** The answer is well formed, a 2xx or 4xx, and in time. */
function expectAnswer(status: number, tuples: unknown, elapsed: number) {
  expect(elapsed).toBeLessThan(5000)
  expect(status).toBeGreaterThanOrEqual(200)
  expect(status).toBeLessThan(500)
  const [[marker, payload]] = tuples as [[string, unknown]]
  if (status === 200) expect(marker).toBe('<<')
  else expect([marker, typeof (payload as { message: unknown }).message]).toEqual(['!!', 'string'])
}

describe('any request', () => {
  it('gets a well-formed 2xx or 4xx answer in time', async () => {
    const h = await createHarness()
    await h.tuples('service.create', [
      ['$$', 'name', 'x'],
      ['$$', 'proc', ['{}', ['()', 'core.echo']]],
    ])
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...urlNames), bodies(json), async (name, body) => {
        const started = Date.now()
        const response = await h.tuples(name, body)
        expectAnswer(response.status, response.json(), Date.now() - started)
      }),
      { numRuns: 400 },
    )
  }, 120_000)

  it('gets one in MessagePack too, decimals and timestamps anywhere', async () => {
    const h = await createHarness()
    const leaf = fc.oneof(json, extensions)
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...urlNames), bodies(leaf), async (name, body) => {
        const started = Date.now()
        const response = await sendMsgpack(h, name, encode(body, { maxDepth: 1000 }))
        expectAnswer(response.status, decode(new Uint8Array(response.bytes)), Date.now() - started)
      }),
      { numRuns: 150 },
    )
  }, 120_000)

  it('survives arbitrary bytes, content types and headers', async () => {
    const h = await createHarness()
    const contentTypes = [
      'text/plain',
      'application/json',
      h.vnd,
      'application/vnd.service+msgpack',
      'image/png',
      '',
      ';;;',
      'text/plain; charset=latin1',
    ]
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...urlNames),
        fc.oneof(
          fc.string(),
          fc.uint8Array({ maxLength: 64 }).map((bytes) => String.fromCharCode(...bytes)),
        ),
        fc.constantFrom(...contentTypes),
        fc.option(
          fc.constantFrom(
            '*/*',
            'text/*',
            'application/json;q=0',
            'nonsense',
            h.vnd,
            'application/vnd.service+msgpack',
          ),
        ),
        fc.dictionary(fc.constantFrom(...argNames), fc.string(), { maxKeys: 3 }),
        async (name, body, contentType, accept, query) => {
          const response = await h.call(name, {
            body,
            contentType,
            query,
            ...(accept ? { accept } : {}),
          })
          expect(response.status).toBeGreaterThanOrEqual(200)
          expect(response.status).toBeLessThan(500)
        },
      ),
      { numRuns: 300 },
    )
  }, 120_000)
})
