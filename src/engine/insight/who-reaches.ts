import { covers } from '../auth/abilities'
import { BY_SECRET, decide, decideTarget, Refusal } from '../auth/decide'
import { InvalidError, UndefinedError } from '../errors'
import { LIB } from '../settings'
import type { Json } from '../store'
import { between, identifyAt, momentOf, type InsightContext, type InsightRun } from './context'
import { MAX_BUCKET_LENGTH, MAX_KEY_LENGTH } from '../packages/keyv'
import { RECORD_NAME } from '../packages/procs'
import { catalogue, entryNamed, stopsOf, type CatalogueEntry } from './reach'
import type { ReachedBy, ResourceQuery, WhoReachesReport } from './types'

/** The most tokens one question may ask about, beside the account's own secrets. */
export const MAX_ASKED_TOKENS = 1000

const RESOURCE_SHAPE =
  'give `resource` as {"endpoint": "keyv.get"}, {"bucket": "users", "key": "alice/1"} (key optional) or {"procedure": "notes"}'

/** One text field of the resource, within the bounds the engine itself sets for it. */
function textField(value: Record<string, Json>, name: string, most: number, what: string) {
  const given = value[name]
  if (given === undefined) return undefined
  if (typeof given !== 'string' || given === '' || given.length > most) {
    throw new InvalidError(`\`resource.${name}' must be ${what} of 1 to ${most} characters`)
  }
  return given
}

/**
 * The resource asked about, read from the body: an endpoint, a bucket and key, a procedure. A
 * bucket, key or procedure name is held to the bounds a call meets (a key is text or an integer,
 * stored as text, as `keyv` reads it); each field that is not says so, with a 400.
 */
export function readResource(value: Json | undefined): ResourceQuery {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidError(RESOURCE_SHAPE)
  }
  const extra = Object.keys(value).filter(
    (f) => !['endpoint', 'bucket', 'key', 'procedure'].includes(f),
  )
  if (extra.length > 0) {
    throw new InvalidError(`\`resource.${extra[0]}' is not part of a resource: ${RESOURCE_SHAPE}`)
  }
  const endpoint = textField(value, 'endpoint', 256, 'a dotted endpoint name')
  const bucket = textField(value, 'bucket', MAX_BUCKET_LENGTH, 'a bucket name')
  const procedure = textField(value, 'procedure', 64, "a stored procedure's name")
  const given = value.key
  const key =
    typeof given === 'number' && Number.isSafeInteger(given)
      ? String(given)
      : textField(value, 'key', MAX_KEY_LENGTH, 'a key (text, or an integer)')
  const kinds = [endpoint, bucket, procedure].filter((field) => field !== undefined).length
  if (kinds !== 1) throw new InvalidError(RESOURCE_SHAPE)
  if (key !== undefined && bucket === undefined) {
    throw new InvalidError(`a key is asked about in its bucket: ${RESOURCE_SHAPE}`)
  }
  if (procedure !== undefined && !RECORD_NAME.test(procedure)) {
    throw new InvalidError(
      "`resource.procedure' must be a stored procedure's name: letters, digits, . and _, starting with a letter",
    )
  }
  if (endpoint !== undefined) return { endpoint }
  if (procedure !== undefined) return { procedure }
  return key === undefined ? { bucket: bucket! } : { bucket: bucket!, key }
}

/** The catalogue's entries the question is about. */
async function entriesOf(ctx: InsightContext, resource: ResourceQuery): Promise<CatalogueEntry[]> {
  const all = await catalogue(ctx)
  if (resource.bucket !== undefined) return all.filter((entry) => entry.keyed)
  if (resource.procedure !== undefined) {
    const found = all.find((entry) => entry.name === `${LIB}.${resource.procedure}`)
    if (!found) {
      throw new UndefinedError(`no stored procedure \`${resource.procedure}' in this account`)
    }
    return [found]
  }
  return [entryNamed(ctx, all, resource.endpoint!)]
}

/**
 * Which tokens reach a resource (an endpoint, a bucket and key of the key-value store, a stored
 * procedure) at `at` (now by default), until when, and through which ability: the account's
 * secrets and each of `tokens`, decided one by one by the evaluator's own rules (`decide`,
 * `decideTarget`), as reach decides them. A token is described, never repeated: `tokens[i]`
 * comes back as `index: i`. The tokens take turns as `run` says.
 */
export async function whoReaches(
  ctx: InsightContext,
  resource: ResourceQuery,
  tokens: readonly string[],
  at?: number,
  run: InsightRun = {},
): Promise<WhoReachesReport> {
  if (!Array.isArray(tokens) || tokens.length > MAX_ASKED_TOKENS) {
    throw new InvalidError(`\`tokens' must be an array of at most ${MAX_ASKED_TOKENS} tokens`)
  }
  if (tokens.some((token) => typeof token !== 'string')) {
    throw new InvalidError("each of `tokens' must be a token, as text")
  }
  const now = await momentOf(ctx, at)
  const entries = await entriesOf(ctx, resource)
  const secrets = await ctx.account.listSecrets()
  const asked: Array<{ token: string; index: number | null }> = [
    ...secrets.map((secret) => ({ token: secret.key, index: null })),
    ...tokens.map((token, index) => ({ token, index })),
  ]
  const reached: ReachedBy[] = []
  for (const { token, index } of asked) {
    const turn = between(ctx, run)
    if (turn) await turn
    const { identity, summary } = await identifyAt(ctx, token, now)
    const principal = identity.state === 'usable' ? identity.principal : undefined
    const through: ReachedBy['through'] = []
    for (const entry of principal ? entries : []) {
      const verdict = decide(principal!, entry.name, entry.insecure)
      if (verdict instanceof Refusal) continue
      if (verdict === BY_SECRET) {
        through.push({ endpoint: entry.name, grant: 'secret', ability: null, keys: 'all' })
        continue
      }
      if (!entry.keyed || resource.bucket === undefined) {
        through.push({ endpoint: entry.name, grant: 'ability', ability: verdict.raw, keys: 'all' })
        continue
      }
      if (resource.key !== undefined) {
        const target = decideTarget(principal!, entry.name, {
          bucket: resource.bucket,
          key: resource.key,
        })
        if (target instanceof Refusal || target === BY_SECRET) continue
        through.push({ endpoint: entry.name, grant: 'ability', ability: target.raw, keys: 'all' })
        continue
      }
      // A bucket asked about whole: each ability that covers the endpoint in that bucket, and
      // whether it reaches every key of it or those under its prefix.
      for (const ability of principal!.kind === 'authorization' ? principal!.abilities : []) {
        if (!covers(ability.name, entry.name)) continue
        if (ability.bucket !== undefined && ability.bucket !== resource.bucket) continue
        through.push({
          endpoint: entry.name,
          grant: 'ability',
          ability: ability.raw,
          keys: ability.prefix === undefined ? 'all' : { prefix: ability.prefix },
        })
      }
    }
    const stops = stopsOf(summary)
    const delegates =
      principal !== undefined && decide(principal, 'auth.create', true) instanceof Refusal === false
    reached.push({
      source: index === null ? 'secret' : 'given',
      index,
      token: summary,
      reaches: through.length > 0,
      delegates,
      through,
      until: principal ? stops.at : null,
      because: principal ? stops.because : null,
    })
  }
  return {
    at: now,
    resource,
    endpoints: entries.map((entry) => entry.name),
    tokens: reached,
  }
}
