import fc from 'fast-check'
import { expect, it } from 'vitest'
import type { ExchangeRecord } from '../../engine'
import { createHarness, type Harness } from '../../testing/engine-harness'
import { recordContract } from '../contract/record'
import { RecordError } from '../contract/record-context'
import { readStepLink, makeStepLink } from './step-link'

type Who =
  { kind: 'secret' } | { kind: 'auth'; index: number } | { kind: 'none' } | { kind: 'forged' }
type Op =
  | { op: 'mint'; abilities: string[]; ttl?: number }
  | { op: 'call'; endpoint: string; who: Who; input: 'token' | 'text' | 'wrapped' | 'none' }
  | { op: 'advance'; seconds: number }

const who: fc.Arbitrary<Who> = fc.oneof(
  fc.constant<Who>({ kind: 'secret' }),
  fc.nat(4).map<Who>((index) => ({ kind: 'auth', index })),
  fc.constant<Who>({ kind: 'none' }),
  fc.constant<Who>({ kind: 'forged' }),
)
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('mint' as const),
    abilities: fc.subarray(['core', 'keyv', 'type.string', 'core.echo', 'keyv.get'], {
      minLength: 1,
    }),
    ttl: fc.option(fc.integer({ min: 1, max: 600 }), { nil: undefined }),
  }),
  fc.record({
    op: fc.constant('call' as const),
    endpoint: fc.constantFrom(
      'core.ping',
      'core.echo',
      'keyv.set',
      'keyv.get',
      'type.string.upcase',
    ),
    who,
    input: fc.constantFrom(
      'token' as const,
      'token' as const,
      'text' as const,
      'wrapped' as const,
      'none' as const,
    ),
  }),
  fc.record({ op: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 900 }) }),
)

/** Runs a program of calls on a fresh account; every secret and token it saw, for the scan. */
async function run(program: Op[]): Promise<{ h: Harness; volatile: Set<string> }> {
  const h = await createHarness({ serviceName: 'service', exchangeLog: 200 })
  const volatile = new Set([h.secret.key])
  const tokens: string[] = []
  const credential = (w: Who): string | null => {
    if (w.kind === 'none') return null
    if (w.kind === 'auth' && tokens.length) return tokens[w.index % tokens.length]!
    if (w.kind === 'forged') {
      const real = tokens[0] ?? h.secret.key
      return real.slice(0, -2) + (real.endsWith('AA') ? 'BB' : 'AA')
    }
    return h.secret.key
  }
  for (const step of program) {
    if (step.op === 'advance') {
      await h.control('clock', { advance: step.seconds })
    } else if (step.op === 'mint') {
      const token = await h.authorize({
        abilities: step.abilities,
        ...(step.ttl ? { ttl: step.ttl } : {}),
      })
      tokens.push(token)
      volatile.add(token)
    } else {
      const token = credential(step.who)
      const secretish = tokens.at(-1) ?? h.secret.key
      const value =
        step.input === 'token'
          ? secretish
          : step.input === 'wrapped'
            ? `note ${secretish}`
            : 'plain'
      const args: unknown[] =
        step.endpoint === 'keyv.set'
          ? [
              ['$$', 'bucket', 'b'],
              ['$$', 'key', 'k'],
              ['$$', 'value', value],
            ]
          : step.endpoint === 'keyv.get'
            ? [
                ['$$', 'bucket', 'b'],
                ['$$', 'key', 'k'],
              ]
            : step.input === 'none'
              ? []
              : [['>>', value]]
      const answer = await h.tuples(step.endpoint, args, { token })
      const cursor = answer.headers.get('x-cursor')
      if (cursor) volatile.add(cursor)
    }
  }
  for (const secret of await h.engine.account.listSecrets()) volatile.add(secret.key)
  // Every bearer token any request carried, forged ones aside (they were never valid).
  const { exchanges } = (await h.control('exchanges')).body as { exchanges: ExchangeRecord[] }
  for (const r of exchanges) {
    const sent = r.request.headers.find(([k]) => k === 'authorization')?.[1]
    if (sent && ['secret', 'authorization'].includes(r.trace.credential?.kind ?? ''))
      volatile.add(sent.replace(/^bearer /i, ''))
  }
  return { h, volatile }
}

/** Programs per run: 150 in the suite; `LINK_SECRET_RUNS=5500` makes about 10,000 links. */
const RUNS = Number(process.env.LINK_SECRET_RUNS ?? 150)

it(
  'puts no secret or token in a link made from any step of any recorded program',
  async () => {
    let links = 0
    let refused = 0
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (program) => {
        const { h, volatile } = await run(program)
        const { exchanges } = (await h.control('exchanges')).body as { exchanges: ExchangeRecord[] }
        const secrets = await h.engine.account.listSecrets()
        let file
        try {
          file = recordContract(exchanges, {
            name: 'program',
            serviceName: h.serviceName,
            baseUrl: h.baseUrl,
            secrets,
          })
        } catch (error) {
          if (!(error instanceof RecordError)) throw error
          refused++
          return
        }
        const steps = file.cases[0]!.steps
        for (const [index, step] of steps.entries()) {
          if (!('call' in step)) continue
          const made = await makeStepLink(file, { step: index + 1 })
          const json = JSON.stringify(await readStepLink(made.value))
          for (const value of volatile) {
            expect(json.includes(value), `step ${index + 1} holds ${value}`).toBe(false)
            expect(made.value.includes(value)).toBe(false)
          }
          links++
        }
      }),
      { numRuns: RUNS, seed: 37 },
    )
    console.log(
      `secret scan: ${links} links made and scanned, ${refused} programs the recorder refused`,
    )
    expect(links).toBeGreaterThan(RUNS)
  },
  Math.max(120_000, RUNS * 300),
)
