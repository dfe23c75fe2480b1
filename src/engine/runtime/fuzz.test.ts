import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createHarness } from '../../storage/test-harness'

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

const { node } = fc.letrec<{ node: unknown; tuple: unknown; call: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    json,
    fc.tuple(fc.constant('%%'), json),
    tie('call'),
    fc
      .tuple(fc.constant('{}'))
      .chain(() => fc.array(tie('tuple'), { maxLength: 4 }).map((t) => ['{}', ...t])),
    fc
      .record({
        name: fc.constantFrom(...argNames),
        default: fc.option(tie('node')),
        type: fc.option(
          fc.constantFrom('integer', 'string', 'number', 'boolean', 'array', 'object', 'nope'),
        ),
      })
      .map(({ name, default: fallback, type }) => [
        '@@',
        name,
        { ...(fallback !== null ? { default: fallback } : {}), ...(type ? { type } : {}) },
      ]),
    fc.array(fc.oneof(fc.constantFrom(...markers), json), { maxLength: 4 }),
  ),
  tuple: fc.oneof(
    fc.tuple(fc.constant('>>'), tie('node')),
    fc.tuple(fc.constant('$$'), fc.constantFrom(...argNames), tie('node')),
    tie('call'),
  ),
  call: fc
    .tuple(
      fc.constantFrom(...names),
      fc.array(
        fc.oneof(
          fc.tuple(fc.constant('>>'), tie('node')),
          fc.tuple(fc.constant('$$'), fc.constantFrom(...argNames), tie('node')),
        ),
        { maxLength: 3 },
      ),
    )
    .map(([name, tuples]) => ['()', name, ...tuples]),
}))

const topLevel = fc.oneof(
  fc.array(
    fc.oneof(
      fc.tuple(fc.constant('>>'), node),
      fc.tuple(fc.constant('$$'), fc.constantFrom(...argNames), node),
    ),
    { maxLength: 4 },
  ),
  fc.array(node, { maxLength: 3 }),
  json,
)

describe('any request', () => {
  it('gets a well-formed 2xx or 4xx answer in time', async () => {
    const h = await createHarness()
    await h.tuples('service.create', [
      ['$$', 'name', 'x'],
      ['$$', 'proc', ['{}', ['()', 'core.echo']]],
    ])
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...urlNames), topLevel, async (name, body) => {
        const started = Date.now()
        const response = await h.tuples(name, body)
        expect(Date.now() - started).toBeLessThan(5000)
        expect(response.status).toBeGreaterThanOrEqual(200)
        expect(response.status).toBeLessThan(500)
        const [[marker, payload]] = response.json() as [[string, unknown]]
        if (response.status === 200) expect(marker).toBe('<<')
        else
          expect([marker, typeof (payload as { message: unknown }).message]).toEqual([
            '!!',
            'string',
          ])
      }),
      { numRuns: 400 },
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
