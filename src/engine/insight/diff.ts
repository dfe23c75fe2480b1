import { covers, grantingTarget, type Ability, type KeyvTarget } from '../auth/abilities'
import type { Principal } from '../auth/principal'
import type { ArgSpec } from '../runtime/endpoint'
import type { TypeName } from '../runtime/types'
import type { Json } from '../store'
import { identifyAt, momentOf, type InsightContext, type InsightRun } from './context'
import { catalogue, reachOne, stopsOf, type CatalogueEntry } from './reach'
import { simulate } from './simulate'
import type { Counterexample, DiffItem, DiffReport, SimulatedCall, TokenSummary } from './types'

/** One side of a diff: what the token is now, and its principal when usable. */
interface Side {
  summary: TokenSummary
  principal: Principal | undefined
  token: string
}

/**
 * What `b` reaches that `a` does not, and the reverse, each with a concrete call that proves
 * it. Candidates come from the two tokens' abilities (every endpoint of the catalogue, every
 * bucket and prefix they name, the moment each stops working); each is then decided by
 * `simulate` for both tokens, the same code that answers calls, and kept only as proven:
 * the one let in, the other refused.
 */
export async function diff(
  ctx: InsightContext,
  a: string,
  b: string,
  at?: number,
  run: InsightRun = {},
): Promise<DiffReport> {
  const now = await momentOf(ctx, at)
  const side = async (token: string): Promise<Side> => {
    const { identity, summary } = await identifyAt(ctx, token, now)
    return {
      summary,
      token,
      principal: identity.state === 'usable' ? identity.principal : undefined,
    }
  }
  const [sideA, sideB] = [await side(a), await side(b)]
  const entries = await catalogue(ctx)
  const args = (name: string) => ctx.registry.get(name)?.args ?? {}
  const input = (name: string) => ctx.registry.get(name)?.input
  const sample = (entry: CatalogueEntry, target?: KeyvTarget) =>
    sampleCall(
      entry.name,
      args(entry.name),
      input(entry.name)?.required ? input(entry.name)!.type : undefined,
      target,
    )
  const candidates = (from: Side, to: Side) => {
    const found: Array<Omit<DiffItem, 'proof'>> = []
    if (!to.principal) return found
    const delegated = delegates(from.principal, entries)
    for (const entry of entries) {
      const mine = reachOne(to.principal, entry)
      if (mine.decision !== 'allowed') continue
      const theirs = from.principal ? reachOne(from.principal, entry) : undefined
      if (!theirs || theirs.decision === 'refused') {
        const target = entry.keyed ? witness(to.principal, undefined, entry.name) : undefined
        found.push({
          kind: 'endpoint',
          endpoint: entry.name,
          sentence: `reaches \`${entry.name}', which the other cannot call${from.principal ? '' : ` (it is ${from.summary.state})`}`,
          counterexample: { ...sample(entry, target), at: now },
          delegated,
        })
        continue
      }
      if (!entry.keyed) continue
      const where = witness(to.principal, from.principal, entry.name)
      if (!where) continue
      found.push({
        kind: 'limit',
        endpoint: entry.name,
        where,
        sentence: `reaches \`${entry.name}' in bucket \`${where.bucket}' for ${entry.name === 'keyv.scan' ? 'prefix' : 'key'} \`${where.key}', outside the other's key-value limits`,
        counterexample: { ...sample(entry, where), at: now },
        delegated,
      })
    }
    const mine = stopsOf(to.summary)
    const theirs = stopsOf(from.summary)
    if (from.principal && theirs.at !== null && (mine.at === null || mine.at > theirs.at)) {
      const both = entries.find(
        (entry) =>
          !entry.keyed &&
          reachOne(to.principal!, entry).decision === 'allowed' &&
          reachOne(from.principal!, entry).decision === 'allowed',
      )
      if (both) {
        found.push({
          kind: 'time',
          endpoint: both.name,
          sentence: `still works at ${new Date(theirs.at * 1000).toISOString()}, when the other stops (its ${theirs.because === 'roll' ? "secret's roll" : 'expiry'})`,
          counterexample: { ...sample(both), at: theirs.at },
          delegated,
        })
      }
    }
    return found
  }
  const prove = async (items: Array<Omit<DiffItem, 'proof'>>, from: Side, to: Side) => {
    const proven: DiffItem[] = []
    for (const item of items) {
      const { at: when, ...call } = item.counterexample
      const [reaches] = (await simulate(ctx, to.token, [call], when, run)).results
      const [refused] = (await simulate(ctx, from.token, [call], when, run)).results
      if (!reaches || !refused) continue
      if (reaches.decision === 'refused' || refused.decision !== 'refused') continue
      proven.push({ ...item, proof: { reaches: verdictOf(reaches), refused: verdictOf(refused) } })
    }
    return proven
  }
  return {
    at: now,
    a: sideA.summary,
    b: sideB.summary,
    sameSecret:
      sideA.summary.secretId !== null && sideA.summary.secretId === sideB.summary.secretId,
    gained: await prove(candidates(sideA, sideB), sideA, sideB),
    lost: await prove(candidates(sideB, sideA), sideB, sideA),
  }
}

const verdictOf = ({ decision, status, code }: SimulatedCall) => ({ decision, status, code })

/** Whether a principal reaches `auth.create`, and so could mint anything. */
function delegates(principal: Principal | undefined, entries: readonly CatalogueEntry[]): boolean {
  const mint = entries.find((entry) => entry.name === 'auth.create')
  return !!principal && !!mint && reachOne(principal, mint).decision === 'allowed'
}

/** The covering abilities of a principal for `name`, or `undefined` when nothing limits it. */
function regions(principal: Principal, name: string): readonly Ability[] | undefined {
  if (principal.kind === 'secret') return undefined
  const covering = principal.abilities.filter((ability) => covers(ability.name, name))
  return covering.some((a) => a.bucket === undefined && a.prefix === undefined)
    ? undefined
    : covering
}

const reaches = (principal: Principal, name: string, target: KeyvTarget) =>
  principal.kind === 'secret' || !!grantingTarget(principal.abilities, name, target)

/**
 * A bucket and key (or scan prefix) that `to` reaches with `name` and `from` does not; none
 * when `from` reaches all that `to` does. Each region `to` holds is tried in the buckets `from`
 * names and in one it does not, with the region's own prefix, or a key no prefix of `from`
 * starts.
 */
export function witness(
  to: Principal,
  from: Principal | undefined,
  name: string,
): KeyvTarget | undefined {
  const mine = regions(to, name) ?? [undefined]
  const theirs = from ? (regions(from, name) ?? null) : []
  // `null`: the other reaches every bucket and key.
  if (theirs === null) return undefined
  const named = [...new Set(theirs.flatMap((a) => (a.bucket === undefined ? [] : [a.bucket])))]
  let fresh = 'default'
  for (let i = 1; named.includes(fresh); i++) fresh = `other${i}`
  const firsts = new Set(theirs.flatMap((a) => (a.prefix ? [a.prefix[0]] : [])))
  const free = [...'kxz0abcdefghijlmnopqrstuvwy123456789_-'].find((c) => !firsts.has(c)) ?? 'k'
  for (const region of mine) {
    const buckets = region?.bucket !== undefined ? [region.bucket] : [...named, fresh]
    const keys =
      region?.prefix !== undefined ? [region.prefix] : name === 'keyv.scan' ? ['', free] : [free]
    for (const bucket of buckets) {
      for (const key of keys) {
        const target = { bucket, key }
        if (reaches(to, name, target) && !(from && reaches(from, name, target))) return target
      }
    }
  }
  return undefined
}

/** A value of a declared type, for a counterexample's required arguments. */
function sampleOf(type: TypeName): Json {
  switch (type) {
    case 'string':
    case 'any':
      return 'x'
    case 'number':
    case 'integer':
      return 1
    case 'boolean':
      return true
    case 'array':
      return []
    case 'object':
      return {}
    case 'strings':
      return ['core.ping']
    case 'proc':
      return ['{}', ['>>', ['%%', 1]]]
  }
}

/**
 * A call of `name` that an authorization reaching it is let in for: its required arguments
 * and input filled, and for a key-value endpoint the bucket and key (or scan prefix) given.
 */
export function sampleCall(
  name: string,
  args: Readonly<Record<string, ArgSpec>>,
  input: TypeName | undefined,
  target?: KeyvTarget,
): Omit<Counterexample, 'at'> {
  const given: Record<string, Json> = {}
  for (const [arg, spec] of Object.entries(args)) {
    if (spec.required) given[arg] = sampleOf(spec.type)
  }
  if (target) {
    given.bucket = target.bucket
    if ('prefix' in args) {
      if (target.key !== '') given.prefix = target.key
    } else given.key = target.key
  }
  return {
    endpoint: name,
    ...(input === undefined ? {} : { input: sampleOf(input) }),
    ...(Object.keys(given).length ? { args: given } : {}),
  }
}
