/**
 * Least privilege from a journal (decision 090): for every token of it, what it did, the
 * narrowest `auth.create` arguments for that, proven by replaying its calls and by `diff`
 * against the minted token, and where the minted token reaches beyond its use.
 */
import type { CoverageEntry } from '../coverage/tally'
import { between, identifyAt, type InsightContext, type InsightRun } from '../context'
import { catalogue, type CatalogueEntry } from '../reach'
import { covers } from '../../auth/abilities'
import { InvalidError } from '../../errors'
import { flagsOf } from './flags'
import { prove, type ProofResult } from './prove'
import { suggest, widened } from './suggest'
import type { EndpointUse, LeastPrivilegeReport, TokenLeastPrivilege, TokenUse } from './types'
import { MAX_TOKENS } from './limits'
import type { TokenGroup } from './token-group'
import { keyOf as keyOfCredential } from './trace-fields'
import { useCollector } from './use'

export * from './types'
export { MAX_BUCKETS, MAX_CHECKED, MAX_REPLAYED, MAX_TOKENS } from './limits'
export { readLeastPrivilegeRequest, type LeastPrivilegeRequest } from './request'

/** The most tokens one report proves; the rest are suggested and flagged, not proven. */
export const MAX_PROVEN = 100
/** Times the proof may widen a suggestion it finds too narrow. */
const ROUNDS = 3

export interface LeastPrivilegeOptions {
  /** Only this token (it is identified, never repeated). */
  token?: string
  /** Its turns and its client's signal, as every insight takes them. */
  run?: InsightRun
}

/** Entries read between two turns. */
const STEP = 256

/** The tokens of `entries`, each with the narrowest token for its use and the proof of it. */
export async function leastPrivilege(
  ctx: InsightContext,
  entries: Iterable<CoverageEntry>,
  options: LeastPrivilegeOptions = {},
): Promise<LeastPrivilegeReport> {
  const run = options.run ?? {}
  const collector = useCollector()
  let read = 0
  for (const entry of entries) {
    if (++read % STEP === 0) {
      const turn = between(ctx, run)
      if (turn) await turn
    }
    collector.add(entry)
  }
  const use = collector.finish()
  const notes: string[] = []
  const ordered = [...use.groups.values()].sort(
    (a, b) =>
      (a.createdAt ?? a.firstAt ?? Infinity) - (b.createdAt ?? b.firstAt ?? Infinity) ||
      a.seen - b.seen,
  )
  const labels = new Map(ordered.map((group, i) => [group, `token ${i + 1}`]))
  let groups = ordered
  if (options.token !== undefined) {
    const key = await keyOf(ctx, options.token)
    if (key === 'secret') notes.push('the token asked about is a secret key: it reaches everything')
    groups = ordered.filter((group) => group.key === key)
    if (groups.length === 0 && key !== 'secret') {
      notes.push('the journal holds no call made with the token asked about')
    }
  }
  const endpoints = await catalogue(ctx)
  const insecure = ctx.registry.insecure
  const tokens: TokenLeastPrivilege[] = []
  for (const [i, group] of groups.entries()) {
    const turn = between(ctx, run)
    if (turn) await turn
    tokens.push(
      await analyse(ctx, group, labels.get(group)!, endpoints, insecure, i < MAX_PROVEN, run),
    )
  }
  if (groups.length > MAX_PROVEN) {
    notes.push(`${groups.length - MAX_PROVEN} tokens past the first ${MAX_PROVEN} were not proven`)
  }
  if (use.groups.size === 0) {
    notes.push('the journal holds no call made with an authorization: there is nothing to tighten')
  }
  if (use.unfollowed > 0) {
    notes.push(
      `${use.unfollowed} calls of tokens past the first ${MAX_TOKENS} were counted, not analysed`,
    )
  }
  const weight = (t: TokenLeastPrivilege) => t.excess ?? { endpoints: -1, limits: -1, time: false }
  tokens.sort(
    (a, b) =>
      weight(b).endpoints - weight(a).endpoints ||
      weight(b).limits - weight(a).limits ||
      Number(weight(b).time) - Number(weight(a).time) ||
      b.flags.length - a.flags.length ||
      Number(a.label.slice(6)) - Number(b.label.slice(6)),
  )
  const report: LeastPrivilegeReport = {
    format: 'service-playground-tokens',
    version: 1,
    entries: use.entries,
    secretCalls: use.secretCalls,
    otherCalls: use.otherCalls,
    tokens,
    unanalysed: use.unfollowed,
    maxExcess: Math.max(0, ...tokens.map((t) => t.excess?.endpoints ?? 0)),
    notes,
  }
  const bearers = [...use.bearers, ...(options.token ? [options.token.trim()] : [])]
  return withoutTokens(report, bearers)
}

/** The grouping key of a token, as `collectUse` makes it from its calls' traces; `secret` for a secret key. */
async function keyOf(ctx: InsightContext, token: string): Promise<string> {
  const { summary } = await identifyAt(ctx, token, await ctx.account.now())
  if (summary.kind === 'secret') return 'secret'
  if (summary.kind !== 'authorization') {
    throw new InvalidError(
      "`token' is not a token of this account: give an authorization it signed",
    )
  }
  return keyOfCredential(summary as unknown as Record<string, unknown>)
}

async function analyse(
  ctx: InsightContext,
  group: TokenGroup,
  label: string,
  endpoints: readonly CatalogueEntry[],
  insecure: readonly string[],
  proven: boolean,
  run: InsightRun,
): Promise<TokenLeastPrivilege> {
  let suggestion = suggest(group, endpoints, insecure)
  let result: ProofResult | undefined
  if (proven) {
    result = await prove(ctx, group, suggestion, run)
    for (let round = 1; round < ROUNDS && result.proof.status === 'failed'; round++) {
      const extra = result.widen.filter((a) => !suggestion.abilities.includes(a))
      if (extra.length === 0) break
      suggestion = widened(suggestion, extra, insecure)
      result = await prove(ctx, group, suggestion, run)
    }
  }
  const { expiresAt: _expiresAt, ...shown } = suggestion
  if (group.abilities === null) {
    shown.notes = [
      'its minted abilities are unknown (no trace of its calls says them): suggested from its use alone',
      ...shown.notes,
    ]
  } else if (!group.inJournal) {
    shown.notes = [
      "minted outside the journal: its abilities are read from its calls' traces",
      ...shown.notes,
    ]
  }
  return {
    label,
    secretId: group.secretId,
    minted: {
      abilities: group.abilities,
      insecure: group.insecure,
      createdAt: group.createdAt,
      expiresAt: group.expiresAt,
      inJournal: group.inJournal,
    },
    use: useOf(group, endpoints),
    suggestion: shown,
    flags: flagsOf(group, endpoints, insecure),
    excess: result?.excess ? { ...result.excess, reached: reachedBy(group, endpoints) } : null,
    proof: result?.proof ?? null,
  }
}

/** Endpoints of the catalogue the minted token's abilities cover, their limits aside. */
function reachedBy(group: TokenGroup, endpoints: readonly CatalogueEntry[]): number {
  const names = (group.abilities ?? []).map((ability) => ability.split('?')[0]!)
  return endpoints.filter((entry) => names.some((name) => covers(name, entry.name))).length
}

function useOf(group: TokenGroup, endpoints: readonly CatalogueEntry[]): TokenUse {
  const keyed = new Set(endpoints.filter((e) => e.keyed).map((e) => e.name))
  const used: EndpointUse[] = [...group.endpoints]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([endpoint, state]) => {
      if (!keyed.has(endpoint)) return { endpoint, calls: state.calls }
      const all = [...state.regions.values()]
      const regions = all.some((r) => r.whole)
        ? null
        : all
            .flatMap((r) => [...r.buckets].map(([bucket, prefix]) => ({ bucket, prefix })))
            .sort((a, b) => (a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0))
      return { endpoint, calls: state.calls, regions }
    })
  return {
    calls: group.calls,
    allowed: group.allowed,
    refused: group.refused,
    failed: group.failed,
    firstAt: group.firstAt,
    lastAt: group.lastAt,
    endpoints: used,
    refusals: [...group.refusals.values()]
      .flatMap((byCode) => [...byCode.values()])
      .sort((a, b) =>
        a.endpoint === b.endpoint ? (a.code < b.code ? -1 : 1) : a.endpoint < b.endpoint ? -1 : 1,
      ),
    minted: group.minted,
  }
}

/**
 * The report with every text holding a bearer token of the journal replaced: a file handed in
 * may hold one anywhere (an ability, a bucket, a secret's id), and a report never repeats one.
 * Tokens are found by their first 8 characters (the shortest a secret key may be), so that a
 * report is cleaned in time linear in its text, whatever the number of tokens.
 */
function withoutTokens<T>(value: T, tokens: readonly string[]): T {
  const starts = new Map<string, string[]>()
  for (const token of new Set(tokens)) {
    if (token.length < 8) continue
    const start = token.slice(0, 8)
    starts.set(start, [...(starts.get(start) ?? []), token])
  }
  if (starts.size === 0) return value
  const cleaned = new Map<string, string>()
  const cleanText = (text: string): string => {
    let known = cleaned.get(text)
    if (known !== undefined) return known
    known = ''
    let from = 0
    for (let i = 0; i + 8 <= text.length; i++) {
      const found = starts.get(text.slice(i, i + 8))?.find((token) => text.startsWith(token, i))
      if (!found) continue
      known += `${text.slice(from, i)}[token]`
      from = i + found.length
      i = from - 1
    }
    known += text.slice(from)
    cleaned.set(text, known)
    return known
  }
  const clean = (item: unknown): unknown => {
    if (typeof item === 'string') return cleanText(item)
    if (Array.isArray(item)) return item.map(clean)
    if (item !== null && typeof item === 'object') {
      return Object.fromEntries(Object.entries(item).map(([k, v]) => [cleanText(k), clean(v)]))
    }
    return item
  }
  return clean(value) as T
}
