// A refusal's counterfactual, checked by making the change and running the call again as the
// engine would (decision 087): when the change alone would still be refused — an expired token
// that never held the ability, an ability that lets `auth.create` in where its insecure argument
// is missing — the further changes are found the same way and named with it (`also`), so that
// every change named, made, lets the call in.

import { parseAbility } from '../auth/abilities'
import type { Presented } from '../auth/credentials'
import type { Principal } from '../auth/principal'
import type { CallRequest, Node } from '../lang/tree'
import type { CallTrace } from '../trace'
import { counterfactualOf, withAlso, type Counterfactual } from '../auth/counterfactual'
import type { QuietOutcome } from './quiet-run'

/** The most further changes looked for beside the first. */
const MAX_ALSO = 4

/** A run of the call as it would be evaluated for `principal` at `at`, writing nothing. */
export type Rerun = (principal: Principal, at: number) => Promise<QuietOutcome>

/**
 * What still stops a run: the counterfactual of its refusal (a 401, or `auth.create`'s 400 for
 * an insecure ability without `insecure: true`), or `undefined` once the call is let in. A call
 * let in that then fails for its own reasons (a missing argument) is let in.
 */
export function stillRefused(outcome: QuietOutcome): Counterfactual | undefined {
  if (outcome.status === 200) return undefined
  const code = (outcome.error as { code?: unknown } | null)?.code
  if (outcome.status !== 401 && code !== 'insecure_ability') return undefined
  const call =
    outcome.calls.find((c) => c.decision === 'refused' && c.counterfactual) ??
    outcome.calls.find((c) => c.decision === 'failed' && c.code === code && c.counterfactual)
  return call?.counterfactual ?? counterfactualOf(outcome.error)
}

/**
 * `principal` holding what `change` asks an authorization to hold (an ability added, one
 * widened, `insecure: true`), or `undefined` when the change is not one a token holds (the
 * moment, an argument of the call).
 */
export function holding(principal: Principal, change: Counterfactual): Principal | undefined {
  if (principal.kind !== 'authorization') return undefined
  if (change.change === 'add_ability' && change.ability) {
    return {
      ...principal,
      abilities: [...principal.abilities, parseAbility(change.ability)],
      insecure: principal.insecure || change.insecure === true,
    }
  }
  if (change.change === 'widen_limit' && change.from !== undefined && change.to !== undefined) {
    const index = principal.abilities.findIndex((ability) => ability.raw === change.from)
    if (index < 0) return undefined
    const abilities = [...principal.abilities]
    abilities[index] = parseAbility(change.to)
    return { ...principal, abilities }
  }
  return undefined
}

/**
 * `first`, with every further change the call would still need: the call is run again for
 * `principal` at `at` (the first change already made, where it touches the token or the moment),
 * and while it is still refused, that refusal's change is named too and made.
 */
export async function checked(
  first: Counterfactual,
  principal: Principal,
  at: number,
  rerun: Rerun,
): Promise<Counterfactual> {
  const also: Counterfactual[] = []
  let current: Principal | undefined = principal
  while (current && also.length < MAX_ALSO) {
    const next = stillRefused(await rerun(current, at))
    if (!next) break
    also.push(next)
    current = holding(current, next)
  }
  return also.length > 0 ? withAlso(first, also) : first
}

/** The moment just before `until` (but not before the token was made): when it still worked. */
export function justBefore(until: number, createdAt: number | null | undefined): number {
  return Math.max(createdAt ?? -Infinity, until - 0.001)
}

/**
 * A dead token (expired, its secret rolled or gone) as it was while it worked: its principal,
 * and the moment to run the call at (just before it died; now, for a token whose secret is
 * gone, which never dies by time). `undefined` when the token never verified (nothing is known
 * of it) or is not dead.
 */
export function whileAlive(
  presented: Presented,
  now: number,
): { principal: Principal; at: number } | undefined {
  if (!('reason' in presented) || !presented.details) return undefined
  const { details, reason } = presented
  // When it died: its expiry, or its secret's roll (a secret key's own expiry).
  const died =
    reason === 'expired'
      ? details.expiresAt
      : reason === 'secret_rolled'
        ? details.kind === 'secret'
          ? details.expiresAt
          : (details.secretExpiresAt ?? null)
        : null
  const at =
    died !== null
      ? justBefore(died, details.createdAt)
      : reason === 'secret_unknown'
        ? now
        : undefined
  if (at === undefined) return undefined
  if (details.kind === 'secret')
    return { principal: { kind: 'secret', secretId: details.secretId }, at }
  return {
    principal: {
      kind: 'authorization',
      secretId: details.secretId,
      abilities: (details.abilities ?? []).map(parseAbility),
      insecure: details.insecure === true,
      expiresAt: details.expiresAt,
    },
    at,
  }
}

/** Endpoints that run the procedures they are given: what they run is checked as it runs. */
const RUNS_PROCEDURES = new Set(['core.exec', 'enum.map'])

/**
 * Whether a call refused at `refused` might meet another refusal once let in: a refusal inside
 * a composition, one whose request holds further calls, `auth.create` (its insecure argument is
 * checked after its ability) or an endpoint that runs procedures. A lone call refused at its own
 * ability, with only data given, meets nothing else: its counterfactual is checked by the rule
 * that refused it, and nothing is run again.
 */
export function mayMeetMore(endpoint: string, request: CallRequest, refused: CallTrace): boolean {
  if (refused.depth > 0 || refused.endpoint === 'auth.create') return true
  if (RUNS_PROCEDURES.has(endpoint)) return true
  const nodes: Node[] = [...(request.input ? [request.input] : []), ...request.args.values()]
  return nodes.some((node) => node.kind !== 'literal')
}
