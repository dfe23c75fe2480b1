import type { RequestTrace } from '../../engine'
import { counterfactualOf, CounterfactualNote } from './counterfactual'
import { describeError, EndpointError } from './endpoint-call'
import { useLoggedExchange } from './exchange-log'
import { codeLabel, reasonLabel } from './labels'
import { Quoted } from './quoted'

/** Why the engine refused or failed a request, as its trace says. */
export interface Refusal {
  code: string
  /** A heading for it; none when the code has none (the code is then shown alone). */
  label?: string
  explanation: string
}

/**
 * The engine's own reason in a trace: the credential it refused, else the first call refused
 * (no ability, or outside a key-value limit), else the first that failed, else the outcome.
 */
export function refusalOf(trace: RequestTrace): Refusal | undefined {
  const { credential, calls, outcome } = trace
  if (credential?.decision === 'refused' && credential.reason) {
    return {
      code: credential.reason,
      label: `Credential refused: ${reasonLabel(credential.reason)}`,
      explanation: credential.explanation,
    }
  }
  const call =
    calls.find((c) => c.decision === 'refused') ?? calls.find((c) => c.decision === 'failed')
  if (call?.code) {
    return withLabel(call.code, codeLabel(call.code), call.explanation)
  }
  if (outcome.code && outcome.status >= 400) {
    return withLabel(outcome.code, codeLabel(outcome.code), outcome.message ?? '')
  }
  return undefined
}

const withLabel = (code: string, label: string | undefined, explanation: string): Refusal =>
  label === undefined ? { code, explanation } : { code, label, explanation }

/**
 * Whether a code says more than its heading: `outside_limit` beside "Outside the key-value
 * limit" does (an identifier the trace and the kit name); `invalid` beside "Invalid request"
 * would only say the same word twice.
 */
export function codeAddsTo(label: string | undefined, code: string): boolean {
  if (!label || code.includes('_')) return true
  return !label.toLowerCase().split(/\W+/).includes(code.toLowerCase())
}

/** What the engine noted on the calls of a request it accepted: an expiry in milliseconds… */
export const warningsOf = (trace: RequestTrace): string[] =>
  trace.calls.flatMap((call) => call.warnings ?? [])

/**
 * The engine's reason for a refusal, from the decision trace: the code (`outside_limit`), its
 * heading, and the engine's sentence, which names the limit and what the call touched; then
 * the smallest change that would have let it in.
 */
export function RefusalReason({ trace }: { trace: RequestTrace }) {
  const refusal = refusalOf(trace)
  if (!refusal) return null
  const counterfactual = counterfactualOf(trace)
  return (
    <div className="refusal" data-testid="refusal-reason">
      <p className="refusal-code">
        <span className="muted">The engine&apos;s reason: </span>
        {refusal.label && <strong>{refusal.label}</strong>}
        {refusal.label && codeAddsTo(refusal.label, refusal.code) && ' '}
        {codeAddsTo(refusal.label, refusal.code) && <code>{refusal.code}</code>}
      </p>
      {refusal.explanation && (
        <p className="refusal-why">
          <Quoted text={refusal.explanation} />
        </p>
      )}
      {refusal.code === 'outside_limit' && (
        <p className="muted refusal-note">
          On the wire this reads like a missing ability (the same 401 and message, as the real
          service words both): an ability covers the endpoint, but its key-value limits do not reach
          what the call touched.
        </p>
      )}
      {counterfactual && (
        <CounterfactualNote counterfactual={counterfactual} token={trace.credential} />
      )}
    </div>
  )
}

/** The engine's notes on a request it answered, when it has any. */
export function TraceWarnings({ trace }: { trace: RequestTrace }) {
  const warnings = warningsOf(trace)
  if (warnings.length === 0) return null
  return (
    <ul className="trace-warnings" aria-label="The engine notes" data-testid="trace-warnings">
      {warnings.map((warning, index) => (
        <li key={index}>
          <Quoted text={warning} />
        </li>
      ))}
    </ul>
  )
}

/**
 * An error as a person reads it (`401 Unauthorized: …`) and, for a refused call, the engine's
 * reason, found in the exchange log.
 */
export function ErrorReason({ error }: { error: unknown }) {
  const sent = error instanceof EndpointError ? error.sent : undefined
  const logged = useLoggedExchange(sent)
  return (
    <div role="alert" className="error-reason">
      <p>{describeError(error)}</p>
      {logged && <RefusalReason trace={logged.trace} />}
    </div>
  )
}
