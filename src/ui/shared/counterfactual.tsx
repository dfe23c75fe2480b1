import type { Counterfactual, CredentialTrace, RequestTrace } from '../../engine'
import { useNow } from './clock'
import { toDateTimeLocal } from './date-time'
import { Name, Quoted } from './quoted'
import { routeHref } from './router'

/**
 * Beside a refusal, the engine's counterfactual (decision 056): the smallest change that would
 * have let the call in, in its own sentence, and where it is an ability to hold, a link to the
 * composer with that ability chosen (decision 081).
 */

/** The ability a counterfactual asks for, when the change is one an authorization can hold. */
export function abilityToHold(counterfactual: Counterfactual): string | undefined {
  if (counterfactual.change === 'widen_limit') return counterfactual.to ?? counterfactual.ability
  if (counterfactual.change === 'add_ability') return counterfactual.ability
  return undefined
}

/** The composer, opened with `ability` chosen (and `insecure: true` when it needs it). */
export const composeHref = (ability: string, insecure = false): string =>
  routeHref(
    'authorizations',
    new URLSearchParams([['ability', ability], ...(insecure ? [['insecure', 'true']] : [])]),
  )

/** What a refused token was, as the decision trace or a report describes it. */
export type RefusedToken = Pick<
  CredentialTrace,
  'kind' | 'reason' | 'abilities' | 'insecure' | 'createdAt' | 'expiresAt' | 'secretId'
> &
  Partial<Pick<CredentialTrace, 'secretExpiresAt'>>

/** The changes a counterfactual makes to what a token holds, in the order named. */
const changesOf = (counterfactual: Counterfactual): Counterfactual[] =>
  [counterfactual, ...(counterfactual.also ?? [])].filter(
    (change) => change.change === 'add_ability' || change.change === 'widen_limit',
  )

/**
 * The composer's parameters for the fix a counterfactual names, starting from the refused
 * token: its abilities and their limits, `insecure` as it was, its lifetime (the same expiry
 * while it is ahead; the same length from now once it has passed) and its secret, with only the
 * changes made (an ability added, one widened). `from=refused` and the token's own abilities
 * (`was`) let the composer say where it came from. Without a token (or for a secret key, which
 * holds no abilities), only the ability asked for.
 */
export function fixParams(
  counterfactual: Counterfactual,
  token: RefusedToken | undefined,
  now: number | undefined,
): URLSearchParams | undefined {
  const changes = changesOf(counterfactual)
  const remint =
    counterfactual.change === 'use_before' || counterfactual.change === 'use_live_secret'
  if (changes.length === 0 && !(remint && token?.kind === 'authorization' && token.abilities)) {
    return undefined
  }
  if (!token || token.kind !== 'authorization' || !token.abilities) {
    const first = changes[0]!
    const ability = abilityToHold(first)!
    return new URLSearchParams([
      ['ability', ability],
      ...(first.insecure ? [['insecure', 'true']] : []),
    ])
  }
  let abilities = [...token.abilities]
  let insecure = token.insecure === true
  for (const change of changes) {
    if (change.change === 'widen_limit' && change.from !== undefined && change.to !== undefined) {
      abilities = abilities.map((held) => (held === change.from ? change.to! : held))
    } else if (change.ability !== undefined && !abilities.includes(change.ability)) {
      abilities.push(change.ability)
    }
    insecure ||= change.insecure === true
  }
  const params = new URLSearchParams(abilities.map((ability) => ['ability', ability]))
  if (insecure) params.set('insecure', 'true')
  const { expiresAt, createdAt } = token
  if (expiresAt !== null) {
    const passed = token.reason === 'expired' || (now !== undefined && expiresAt <= now)
    if (passed && createdAt !== null) {
      // Its lifetime again, from now: the expiry itself has passed.
      params.set('ttl', String(Math.max(1, Math.round((expiresAt - createdAt) * 1000) / 1000)))
    } else if (!passed) {
      params.set('expiry', toDateTimeLocal(expiresAt, 'utc'))
    }
  }
  // Its own secret while that still signs: not once a roll or its absence refused it, nor when
  // the engine says a token minted again needs a live secret (expired, then its secret rolled),
  // nor once its secret's roll has taken effect. Then the composer's first live secret.
  const secretDead =
    token.reason === 'secret_rolled' ||
    token.reason === 'secret_unknown' ||
    counterfactual.remint?.liveSecret === true ||
    (token.secretExpiresAt != null && now !== undefined && token.secretExpiresAt <= now)
  if (token.secretId && !secretDead) params.set('signer', `secret:${token.secretId}`)
  params.set('from', 'refused')
  for (const held of token.abilities) params.append('was', held)
  return params
}

/** A link to the composer with the fix a counterfactual names, from the refused token. */
export function fixHref(
  counterfactual: Counterfactual,
  token: RefusedToken | undefined,
  now: number | undefined,
): string | undefined {
  const params = fixParams(counterfactual, token, now)
  return params && routeHref('authorizations', params)
}

/** What the change is, as the heading of its sentence. */
const heading = (counterfactual: Counterfactual) =>
  counterfactual.change === 'operator'
    ? 'What would change the answer:'
    : 'What would have let it in:'

/** The counterfactual of a trace: its credential's, else its first refused or failed call's, else its outcome's. */
export function counterfactualOf(trace: RequestTrace): Counterfactual | undefined {
  if (trace.credential?.decision === 'refused' && trace.credential.counterfactual) {
    return trace.credential.counterfactual
  }
  const call =
    trace.calls.find((c) => c.decision === 'refused' && c.counterfactual) ??
    trace.calls.find((c) => c.decision === 'failed' && c.counterfactual)
  return call?.counterfactual ?? trace.outcome.counterfactual
}

/**
 * A counterfactual as a person reads it, with a way to act on it when there is one: the
 * composer, started from `token` (the refused token) with only the change made.
 */
export function CounterfactualNote({
  counterfactual,
  token,
}: {
  counterfactual: Counterfactual
  token?: RefusedToken | null
}) {
  const now = useNow()
  const changes = changesOf(counterfactual)
  const ability = changes[0] && abilityToHold(changes[0])
  const href = fixHref(counterfactual, token ?? undefined, now)
  const fromToken = token?.kind === 'authorization' && token.abilities !== null
  return (
    <div
      className="counterfactual"
      data-testid="counterfactual"
      data-change={counterfactual.change}
    >
      <p>
        <strong>{heading(counterfactual)}</strong> <Quoted text={counterfactual.sentence} />
      </p>
      {!ability && href && (
        <p className="counterfactual-action">
          <a href={href} data-testid="compose-fix">
            Mint it again
          </a>
          <span className="muted"> (its abilities, limits and lifetime, from a live secret)</span>
        </p>
      )}
      {ability && href && (
        <p className="counterfactual-action">
          <a href={href} data-testid="compose-fix">
            Compose an authorization with{' '}
            {changes.map((change, i) => (
              <span key={i}>
                {i > 0 && ' and '}
                <code>
                  <Name text={abilityToHold(change) ?? ''} />
                </code>
              </span>
            ))}
          </a>
          {fromToken && (
            <span className="muted">
              {' '}
              (from the refused token: its other abilities, limits and lifetime as they were)
            </span>
          )}
          {changes.some((change) => change.insecure) && (
            <span className="muted"> (insecure: true)</span>
          )}
        </p>
      )}
    </div>
  )
}
