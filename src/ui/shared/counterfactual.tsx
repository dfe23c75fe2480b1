import type { Counterfactual, RequestTrace } from '../../engine'
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

/** A counterfactual as a person reads it, with a way to act on it when there is one. */
export function CounterfactualNote({ counterfactual }: { counterfactual: Counterfactual }) {
  const ability = abilityToHold(counterfactual)
  return (
    <div
      className="counterfactual"
      data-testid="counterfactual"
      data-change={counterfactual.change}
    >
      <p>
        <strong>{heading(counterfactual)}</strong> <Quoted text={counterfactual.sentence} />
      </p>
      {ability && (
        <p className="counterfactual-action">
          <a href={composeHref(ability, counterfactual.insecure === true)}>
            Compose an authorization with{' '}
            <code>
              <Name text={ability} />
            </code>
          </a>
          {counterfactual.insecure && <span className="muted"> (insecure: true)</span>}
        </p>
      )}
    </div>
  )
}
