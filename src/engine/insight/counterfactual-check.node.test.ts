import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nodeHmac } from '../../server/node-hmac'
import { createHarness } from '../../testing/engine-harness'
import type { ExchangeRecord } from '../operator/exchange-log'
import type { Json } from '../store'
import type { RequestTrace } from '../trace'
import type { Counterfactual } from '../auth/counterfactual'
import type { SimulateReport } from './types'

/**
 * Every counterfactual the engine gives is checked by making its change: the same account, the
 * same token (or one minted as the change says), the same call, made again with the change (and
 * every further change it names in `also`) must be let in and answered 200. Tokens expire,
 * secrets roll, abilities miss, limits fall short and insecure abilities go unflagged, alone and
 * together; every refusal code is met. Each world is made afresh on its own engine and clock.
 */

/** The token a call is made with. */
type TokenSpec =
  | { kind: 'secret' }
  | {
      kind: 'authorization'
      abilities: string[]
      insecure?: boolean
      ttl?: number
      /** Minted from a second secret of the account, never rolled, instead of the one that rolls. */
      live?: boolean
    }
  /** An authorization whose secret has since left the account (`secret_unknown`). */
  | { kind: 'orphan'; abilities: string[] }
  | { kind: 'none' | 'malformed' | 'unknown' | 'altered' }

interface World {
  token: TokenSpec
  /** Seconds after the start when the account's secret's roll takes effect (scheduled at start). */
  roll?: number
  /** Seconds after the start the call is made at. */
  callAt: number
  endpoint: string
  args: Record<string, Json>
}

interface Made {
  status: number
  trace: RequestTrace
  start: number
  simulated: SimulateReport | undefined
}

const START_DATA: Array<[string, string, Json]> = [
  ['users', 'alice/1', 'Alice'],
  ['users', 'bob/1', 'Bob'],
]

/** Makes the world and the call in it; answers how the call went and its trace. */
async function make(world: World, { simulate = true } = {}): Promise<Made> {
  const h = await createHarness({ exchangeLog: 4, hmac: nodeHmac })
  await h.engine.settings.store.commit(
    START_DATA.map(([bucket, key, value]) => ({ op: 'setKey', bucket, key, value })),
  )
  const start = h.clock.now() / 1000
  let token: string | null
  const spec = world.token
  switch (spec.kind) {
    case 'secret':
      token = h.secret.key
      break
    case 'authorization':
      token = await h.authorize(
        {
          abilities: spec.abilities,
          ...(spec.insecure ? { insecure: true } : {}),
          ...(spec.ttl !== undefined ? { ttl: spec.ttl } : {}),
        },
        spec.live ? (await h.engine.account.createSecret()).key : undefined,
      )
      break
    case 'orphan': {
      const other = await h.engine.account.createSecret()
      token = await h.authorize({ abilities: spec.abilities }, other.key)
      const store = h.engine.settings.store
      const snapshot = await store.snapshot()
      snapshot.secrets = snapshot.secrets.filter((secret) => secret.id !== other.id)
      await store.commit([{ op: 'restore', snapshot }])
      break
    }
    case 'altered': {
      const made = await h.authorize({ abilities: ['core'] })
      token = `${made.slice(0, -2)}${made.endsWith('AA') ? 'BB' : 'AA'}`
      break
    }
    case 'unknown':
      token = 'not-a-token-of-this-account'
      break
    case 'malformed':
    case 'none':
      token = null
  }
  if (world.roll !== undefined) {
    await h.engine.account.rollSecret(h.secret.id, { at: start + world.roll })
  }
  h.clock.advance(world.callAt * 1000)
  const body = Object.entries(world.args).map(([name, value]) => ['$$', name, value])
  const response = await h.tuples(world.endpoint, body, {
    token,
    ...(spec.kind === 'malformed' ? { headers: { authorization: 'token abc' } } : {}),
  })
  const page = (await h.control('exchanges')).body as { exchanges: ExchangeRecord[] }
  const simulated = simulate
    ? ((
        await h.control('simulate', {
          token: token ?? '',
          calls: [{ endpoint: world.endpoint, args: world.args }],
        })
      ).body as SimulateReport)
    : undefined
  return { status: response.status, trace: page.exchanges[0]!.trace, start, simulated }
}

/** The counterfactual a person is shown: the refused token's, else the refused call's, else the outcome's. */
function shown(trace: RequestTrace): Counterfactual | undefined {
  if (trace.credential?.decision === 'refused') return trace.credential.counterfactual
  const call =
    trace.calls.find((c) => c.decision === 'refused') ??
    trace.calls.find((c) => c.decision === 'failed')
  return call?.counterfactual ?? trace.outcome.counterfactual
}

/** The token with one change to what it holds. */
function holding(token: TokenSpec, change: (abilities: string[]) => string[], insecure = false) {
  if (token.kind === 'authorization') {
    return {
      ...token,
      abilities: change(token.abilities),
      insecure: token.insecure === true || insecure,
    }
  }
  if (token.kind === 'orphan') return { ...token, abilities: change(token.abilities) }
  throw new Error(`a change to the abilities of a ${token.kind} token`)
}

/**
 * The world with `change` made. Several worlds when the change offers several ways (a wider
 * ability, the narrowest one instead): each must let the call in.
 */
function applied(world: World, change: Counterfactual, start: number): World[] {
  const one = (next: World) => [next]
  switch (change.change) {
    case 'use_before':
      expect(change.before, change.sentence).toBeTypeOf('number')
      return [
        { ...world, callAt: change.before! - start - 0.001 },
        // Or the token minted again as the change says (a secret key has no such way).
        ...(world.token.kind === 'secret' ? [] : [reminted(world, change)]),
      ]
    case 'add_ability': {
      const ways = [change.ability!, ...(change.alternatives ?? [])]
      return ways.map((ability) => ({
        ...world,
        token: holding(world.token, (held) => [...held, ability], change.insecure),
      }))
    }
    case 'widen_limit':
      return [
        {
          ...world,
          token: holding(world.token, (held) =>
            held.map((a) => (a === change.from ? change.to! : a)),
          ),
        },
        { ...world, token: holding(world.token, (held) => [...held, change.ability!]) },
      ]
    case 'set_insecure':
      // In the auth.create call: the one at the URL, or those inside a composition.
      return one({
        ...world,
        args:
          world.endpoint === 'auth.create'
            ? { ...world.args, insecure: true }
            : (insecureInside(world.args) as Record<string, Json>),
      })
    case 'use_live_secret':
      if (world.token.kind !== 'orphan')
        throw new Error('use_live_secret for a token with a secret')
      return one(reminted(world, change))
    case 'send_token':
      return one({ ...world, token: { kind: 'secret' }, roll: undefined })
    default:
      throw new Error(`no way to apply ${change.change}: ${change.sentence}`)
  }
}

/**
 * A dead token minted again, made when it was and called when it was, with only what the
 * change's `remint` says: from a live secret (never rolled), with an expiry after the call. A
 * remint that leaves out what killed it (its secret's roll, its expiry) is caught here: the call
 * is then refused again.
 */
function reminted(world: World, change: Counterfactual): World {
  const spec = world.token
  if (spec.kind !== 'authorization' && spec.kind !== 'orphan') {
    throw new Error(`no token to mint again: ${spec.kind}`)
  }
  expect(change.remint, `${change.sentence}: how to mint it again`).toBeDefined()
  const { liveSecret, laterExpiry } = change.remint!
  const ttl = spec.kind === 'authorization' ? spec.ttl : undefined
  return {
    ...world,
    token: {
      kind: 'authorization',
      abilities: spec.abilities,
      ...(spec.kind === 'authorization' && spec.insecure ? { insecure: true } : {}),
      ...(ttl === undefined ? {} : { ttl: laterExpiry ? world.callAt + 600 : ttl }),
      ...(liveSecret || (spec.kind === 'authorization' && spec.live) ? { live: true } : {}),
    },
  }
}

/** Tuples with `["$$", "insecure", true]` given to every `auth.create` call they hold. */
function insecureInside(value: Json): Json {
  if (Array.isArray(value)) {
    const inner = value.map(insecureInside)
    return value[0] === '()' && value[1] === 'auth.create'
      ? [...inner, ['$$', 'insecure', true]]
      : inner
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, insecureInside(v)]))
  }
  return value
}

/** Every world the counterfactual and its further changes, made together, lead to. */
function allApplied(world: World, change: Counterfactual, start: number): World[] {
  let worlds = applied(world, change, start)
  for (const further of change.also ?? []) {
    worlds = worlds.flatMap((w) => applied(w, further, start))
  }
  return worlds
}

const ENDPOINTS: Array<[string, Record<string, Json>]> = [
  ['core.ping', {}],
  ['keyv.get', { bucket: 'users', key: 'alice/1' }],
  ['keyv.get', { bucket: 'users', key: 'bob/1' }],
  ['auth.create', { abilities: ['core'] }],
  ['auth.create', { abilities: ['auth.create'] }],
  // The call inside is refused, not the one at the URL.
  [
    'core.exec',
    { proc: ['{}', ['()', 'keyv.get', ['$$', 'bucket', 'users'], ['$$', 'key', 'bob/1']]] },
  ],
]

const ABILITIES: Array<{ abilities: string[]; insecure?: boolean }> = [
  { abilities: ['core.ping'] },
  { abilities: ['keyv.get?bucket=users&prefix=alice/'] },
  { abilities: ['auth.create'], insecure: true },
  { abilities: ['core.exec'] },
]

/** Lifetimes and rolls, and when the call comes: fresh, or after every one of them. */
const TIMES: Array<{ ttl?: number; roll?: number; callAt: number }> = [
  { callAt: 1 },
  { ttl: 600, callAt: 700 },
  { roll: 3600, callAt: 4000 },
  // Expired first, its secret rolled later: expired.
  { ttl: 600, roll: 3600, callAt: 4000 },
  // Its secret rolled first, its expiry later: secret_rolled, before and after the expiry.
  { ttl: 7200, roll: 3600, callAt: 4000 },
  { ttl: 7200, roll: 3600, callAt: 8000 },
]

function worlds(): World[] {
  const all: World[] = []
  for (const [endpoint, args] of ENDPOINTS) {
    for (const held of ABILITIES) {
      for (const { ttl, roll, callAt } of TIMES) {
        all.push({
          token: { kind: 'authorization', ...held, ...(ttl !== undefined ? { ttl } : {}) },
          ...(roll !== undefined ? { roll } : {}),
          callAt,
          endpoint,
          args,
        })
      }
    }
    all.push({ token: { kind: 'secret' }, roll: 3600, callAt: 4000, endpoint, args })
    all.push({ token: { kind: 'orphan', abilities: ['core.ping'] }, callAt: 1, endpoint, args })
  }
  for (const kind of ['none', 'malformed', 'unknown', 'altered'] as const) {
    all.push({ token: { kind }, callAt: 1, endpoint: 'core.ping', args: {} })
  }
  return all
}

const describeWorld = (w: World) =>
  `${w.endpoint}(${JSON.stringify(w.args)}) with ${JSON.stringify(w.token)}${w.roll ? `, roll at +${w.roll}` : ''}, at +${w.callAt}`

/**
 * Makes `world`; when its call is refused, makes every world its counterfactual leads to, each of
 * which must answer 200. Answers the counterfactual shown (none for a call let in) and how many
 * worlds were made from it.
 */
async function check(world: World): Promise<{ change?: Counterfactual; checked: number }> {
  const made = await make(world)
  const change = shown(made.trace)
  if (made.status === 200) {
    expect(change, describeWorld(world)).toBeUndefined()
    return { checked: 0 }
  }
  const what = `${describeWorld(world)}: ${made.status} ${JSON.stringify(change)}`
  expect(change, what).toBeDefined()
  // Simulate, asked at the same moment, says the same (it takes a token, not a header).
  if (world.token.kind !== 'malformed') {
    expect(made.simulated!.results[0]!.counterfactual, what).toEqual(change)
  }
  let checked = 0
  for (const next of allApplied(world, change!, made.start)) {
    const again = await make(next, { simulate: false })
    expect(
      again.status,
      `${what}\n  made: ${describeWorld(next)}\n  ${JSON.stringify(again.trace.outcome)}`,
    ).toBe(200)
    checked++
  }
  return { change: change!, checked }
}

/** Abilities a token may hold: whole packages, endpoints, buckets and prefixes, insecure ones. */
const HELD = [
  'core.ping',
  'core',
  'core.exec',
  'keyv.get?bucket=users&prefix=alice/',
  'keyv.get?bucket=orders',
  'keyv?bucket=users&prefix=bob/',
  'keyv.scan?bucket=users&prefix=alice/',
  'keyv.set?bucket=users',
  'auth.create',
  'auth',
]

const INSECURE = new Set(['auth.create', 'auth'])

/** Calls: inside and outside a bucket or a prefix, a scan, a write, minting, a composition. */
const CALLS: Array<[string, Record<string, Json>]> = [
  ...ENDPOINTS,
  ['keyv.get', { bucket: 'orders', key: 'o/1' }],
  ['keyv.set', { bucket: 'users', key: 'bob/2', value: 'B' }],
  ['keyv.set', { bucket: 'orders', key: 'o/2', value: 'O' }],
  ['keyv.scan', { bucket: 'users', prefix: 'alice/' }],
  ['keyv.scan', { bucket: 'users', prefix: 'bob/' }],
  ['keyv.scan', { bucket: 'users' }],
  ['auth.create', { abilities: ['auth'] }],
  ['core.exec', { proc: ['{}', ['()', 'auth.create', ['$$', 'abilities', ['auth.create']]]] }],
]

describe('every counterfactual, made, lets the call in', () => {
  it(
    'across expiry, rolls, abilities, limits and insecure abilities, alone and together',
    { timeout: 120_000 },
    async () => {
      const codes = new Set<string>()
      const combined = new Set<string>()
      let checked = 0
      for (const world of worlds()) {
        const { change, checked: made } = await check(world)
        checked += made
        if (!change) continue
        codes.add(change.code)
        for (const further of change.also ?? []) combined.add(`${change.code}+${further.code}`)
      }
      expect([...codes].sort()).toEqual(
        [
          'bad_signature',
          'expired',
          'insecure_ability',
          'malformed',
          'missing',
          'missing_ability',
          'outside_limit',
          'secret_rolled',
          'secret_unknown',
          'unknown_token',
        ].sort(),
      )
      // Refusals met together: a dead token that never held the ability, an ability that lets
      // auth.create in without its insecure flag, a composition whose inner call is refused.
      expect([...combined]).toEqual(
        expect.arrayContaining([
          'expired+missing_ability',
          'expired+outside_limit',
          'secret_rolled+missing_ability',
          'secret_rolled+insecure_ability',
          'secret_unknown+missing_ability',
          'missing_ability+insecure_ability',
          'missing_ability+missing_ability',
        ]),
      )
      expect(checked).toBeGreaterThan(100)
    },
  )

  it(
    'for any token, lifetime, roll and call: every way each counterfactual offers lets it in',
    { timeout: 120_000 },
    async () => {
      const world = fc.record({
        abilities: fc.subarray(HELD, { minLength: 1, maxLength: 3 }),
        ttl: fc.option(fc.integer({ min: 60, max: 7_200 }), { nil: undefined }),
        roll: fc.option(fc.integer({ min: 60, max: 7_200 }), { nil: undefined }),
        callAt: fc.integer({ min: 1, max: 9_000 }),
        call: fc.constantFrom(...CALLS),
      })
      await fc.assert(
        fc.asyncProperty(
          world,
          async ({ abilities, ttl, roll, callAt, call: [endpoint, args] }) => {
            await check({
              token: {
                kind: 'authorization',
                abilities,
                ...(abilities.some((a) => INSECURE.has(a)) ? { insecure: true } : {}),
                ...(ttl === undefined ? {} : { ttl }),
              },
              ...(roll === undefined ? {} : { roll }),
              callAt,
              endpoint,
              args,
            })
          },
        ),
        { numRuns: 40, seed: 99 },
      )
    },
  )

  it('names the first cause in time: expired before its secret rolled is expired, and the reverse', async () => {
    const expiredFirst = await make({
      token: { kind: 'authorization', abilities: ['core'], ttl: 600 },
      roll: 3600,
      callAt: 4000,
      endpoint: 'core.ping',
      args: {},
    })
    expect(expiredFirst.trace.credential).toMatchObject({ reason: 'expired' })
    expect(expiredFirst.trace.credential!.explanation).toMatch(
      /^the authorization expired at .* UTC \(virtual clock\), before the roll of its secret `sec_[\w-]+' took effect \(at .* UTC \(virtual clock\)\)$/,
    )
    expect(expiredFirst.trace.outcome.message).toBe('authorization is expired')
    expect(expiredFirst.trace.credential!.counterfactual).toMatchObject({
      change: 'use_before',
      before: expiredFirst.start + 600,
      // Minted again, it needs a later expiry and a live secret: its own has rolled since.
      remint: { liveSecret: true, laterExpiry: true },
    })
    expect(expiredFirst.trace.credential!.counterfactual!.sentence).toMatch(
      /^called before .* UTC \(virtual clock\) it would have passed; or mint it again from a live secret, with a later `expiry' or a longer `ttl' \(the roll of its secret `sec_[\w-]+' takes effect at .*\)$/,
    )
    const rolledFirst = await make({
      token: { kind: 'authorization', abilities: ['core'], ttl: 7200 },
      roll: 3600,
      callAt: 8000,
      endpoint: 'core.ping',
      args: {},
    })
    expect(rolledFirst.trace.credential).toMatchObject({ reason: 'secret_rolled' })
    expect(rolledFirst.trace.credential!.explanation).toMatch(/, before its own expiry \(at /)
    expect(rolledFirst.trace.credential!.counterfactual).toMatchObject({
      change: 'use_before',
      before: rolledFirst.start + 3600,
      remint: { liveSecret: true, laterExpiry: true },
    })
  })
})
