import { covers, type Ability } from '../auth/abilities'
import { BY_SECRET, decide, Refusal } from '../auth/decide'
import type { Principal } from '../auth/principal'
import { UndefinedError } from '../errors'
import { LIB } from '../settings'
import { whileAlive } from './checked'
import { between, identifyAt, momentOf, type InsightContext, type InsightRun } from './context'
import { withAlso, type Counterfactual } from '../auth/counterfactual'
import type { ReachEndpoint, ReachLimit, ReachPackage, ReachReport, TokenSummary } from './types'

/** An endpoint of the catalogue as reach weighs it. */
export interface CatalogueEntry {
  name: string
  insecure: boolean
  /** It touches the key-value store: abilities' limits apply to it. */
  keyed: boolean
}

/** Every endpoint a token might call: the built-ins, then each stored procedure at `lib.<name>`. */
export async function catalogue(ctx: InsightContext): Promise<CatalogueEntry[]> {
  const entries = ctx.registry.list().map((endpoint) => ({
    name: endpoint.name,
    insecure: endpoint.insecure === true,
    keyed: endpoint.target !== undefined,
  }))
  for (const proc of await ctx.settings.store.listProcs()) {
    entries.push({ name: `${LIB}.${proc.name}`, insecure: false, keyed: false })
  }
  return entries
}

/**
 * The catalogue's entry for `name`, or the 404 a call to it gets: ``undefined <service> `name'``,
 * suggesting what its package holds (`keyv` asked about names `keyv.get`, `keyv.set`, …).
 */
export function entryNamed(
  ctx: InsightContext,
  entries: readonly CatalogueEntry[],
  name: string,
): CatalogueEntry {
  const found = entries.find((entry) => entry.name === name)
  if (found) return found
  const message = `undefined ${ctx.settings.serviceName} \`${name}'`
  const near = ctx.registry.neighbours(name)
  if (near.length === 0) throw new UndefinedError(message)
  throw new UndefinedError(`${message}; try one of: ${near.map((n) => `\`${n}'`).join(', ')}`)
}

/** The regions of the key-value store `abilities` reach for `name`; `null` for all of it. */
export function limitsOf(abilities: readonly Ability[], name: string): ReachLimit[] | null {
  const limits: ReachLimit[] = []
  for (const ability of abilities) {
    if (!covers(ability.name, name)) continue
    if (ability.bucket === undefined && ability.prefix === undefined) return null
    limits.push({
      ability: ability.raw,
      bucket: ability.bucket ?? null,
      prefix: ability.prefix ?? null,
    })
  }
  return limits
}

/** One endpoint for a principal, by the evaluator's own decision. */
export function reachOne(
  principal: Principal,
  entry: CatalogueEntry,
): Omit<ReachEndpoint, 'package' | 'insecure'> {
  const verdict = decide(principal, entry.name, entry.insecure)
  if (verdict instanceof Refusal) {
    return {
      endpoint: entry.name,
      decision: 'refused',
      grant: null,
      ability: null,
      limits: null,
      code: verdict.code,
      explanation: verdict.explanation,
      counterfactual: verdict.counterfactual(),
    }
  }
  if (verdict === BY_SECRET) {
    return {
      endpoint: entry.name,
      decision: 'allowed',
      grant: 'secret',
      ability: null,
      limits: null,
      code: null,
      explanation: `the secret key of \`${principal.secretId}' reaches every endpoint`,
    }
  }
  return {
    endpoint: entry.name,
    decision: 'allowed',
    grant: 'ability',
    ability: verdict.raw,
    limits:
      entry.keyed && principal.kind === 'authorization'
        ? limitsOf(principal.abilities, entry.name)
        : null,
    code: null,
    explanation: `ability \`${verdict.raw}' covers \`${entry.name}'`,
  }
}

/** When a token stops working: its expiry or its secret's roll, whichever comes first. */
export function stopsOf(token: TokenSummary): ReachReport['stops'] {
  const expiry = token.kind === 'authorization' ? token.expiresAt : null
  const roll = token.secretExpiresAt
  if (expiry === null && roll === null) return { at: null, because: null }
  if (roll === null || (expiry !== null && expiry <= roll)) return { at: expiry, because: 'expiry' }
  return { at: roll, because: 'roll' }
}

/**
 * What `token` can do at `at` (now by default): every endpoint and package of the catalogue,
 * each decided by the evaluator's own rule (`decide`), with the key-value regions it reaches,
 * the insecure abilities it holds, and when it stops working.
 */
export async function reach(
  ctx: InsightContext,
  token: string,
  at?: number,
  run: InsightRun = {},
): Promise<ReachReport> {
  const now = await momentOf(ctx, at)
  const { identity, summary } = await identifyAt(ctx, token, now)
  const entries = await catalogue(ctx)
  const principal = identity.state === 'usable' ? identity.principal : undefined
  // A dead token's endpoints, as it was while it worked: its change alone lets in only those
  // it held (decision 087).
  const alive = principal ? undefined : whileAlive(identity, now)
  const deadChange = (entry: CatalogueEntry) => {
    const own = summary.counterfactual
    if (!own || !alive) return own
    const verdict = decide(alive.principal, entry.name, entry.insecure)
    return verdict instanceof Refusal ? withAlso(own, [verdict.counterfactual()]) : own
  }
  const endpoints: ReachEndpoint[] = []
  for (const [index, entry] of entries.entries()) {
    if (index % 256 === 0) {
      const turn = between(ctx, run)
      if (turn) await turn
    }
    endpoints.push(reachEntry(entry, principal, summary, principal ? undefined : deadChange(entry)))
  }
  const insecure = ctx.registry.insecure
  return {
    at: now,
    token: summary,
    stops: stopsOf(summary),
    insecureAbilities:
      principal?.kind === 'authorization'
        ? principal.abilities
            .filter((ability) => insecure.some((name) => covers(ability.name, name)))
            .map((ability) => ability.raw)
        : [],
    delegates: endpoints.some((e) => e.endpoint === 'auth.create' && e.decision === 'allowed'),
    endpoints,
    packages: packagesOf(endpoints),
  }
}

/**
 * One endpoint of the catalogue for a token: decided for its principal, or refused with it and
 * `counterfactual`, what would have let it in.
 */
function reachEntry(
  entry: CatalogueEntry,
  principal: Principal | undefined,
  summary: TokenSummary,
  counterfactual: Counterfactual | undefined,
): ReachEndpoint {
  return {
    package: entry.name.split('.', 1)[0]!,
    insecure: entry.insecure,
    ...(principal
      ? reachOne(principal, entry)
      : {
          endpoint: entry.name,
          decision: 'refused' as const,
          grant: null,
          ability: null,
          limits: null,
          code: summary.reason,
          explanation: summary.explanation,
          ...(counterfactual ? { counterfactual } : {}),
        }),
  }
}

/** Every dotted prefix of the endpoints' names, with how many of its endpoints are reached. */
function packagesOf(endpoints: readonly ReachEndpoint[]): ReachPackage[] {
  const counts = new Map<string, { endpoints: number; allowed: number }>()
  for (const { endpoint, decision } of endpoints) {
    const parts = endpoint.split('.')
    // Below `lib` a dotted name is one procedure: `lib` is their one package.
    const depth = parts[0] === LIB ? 1 : parts.length - 1
    for (let i = 1; i <= depth; i++) {
      const name = parts.slice(0, i).join('.')
      let count = counts.get(name)
      if (!count) counts.set(name, (count = { endpoints: 0, allowed: 0 }))
      count.endpoints++
      if (decision === 'allowed') count.allowed++
    }
  }
  return [...counts]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, { endpoints, allowed }]) => ({
      package: name,
      endpoints,
      allowed,
      decision: allowed === endpoints ? 'all' : allowed === 0 ? 'none' : 'some',
    }))
}
