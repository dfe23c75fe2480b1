import type { CSSProperties } from 'react'
import type { CallTrace, CredentialTrace, RequestTrace } from '../../engine'
import { formatTime } from '../shared/format'
import { reasonPhrase } from '../shared/wire'
import { Name, NameList, Quoted } from '../shared/quoted'
import { codeLabel, kindLabel, reasonLabel } from '../shared/labels'
import { CounterfactualNote } from '../shared/counterfactual'

/** A time on the engine's virtual clock. */
export function VirtualTime({ seconds }: { seconds: number }) {
  return (
    <span className="log-time">
      {formatTime(seconds)} <span className="muted">(virtual)</span>
    </span>
  )
}

/**
 * Everything the engine decided for a request, in the engine's own sentences: which
 * credential came and whether it was let in, each call with what let it run or why it
 * stopped (inner calls indented by depth), and how the request ended.
 */
export function DecisionTrace({ trace, at }: { trace: RequestTrace; at: number }) {
  return (
    <section className="log-trace" aria-labelledby="log-trace-heading">
      <h4 id="log-trace-heading">Decision trace</h4>
      <h5>Credential</h5>
      <Credential credential={trace.credential} at={at} />
      <h5>Calls</h5>
      <Calls trace={trace} />
      <h5>Outcome</h5>
      <Outcome outcome={trace.outcome} said={saidBefore(trace)} token={trace.credential} />
    </section>
  )
}

/** The credential of a request answered at `at` (virtual seconds): its times said as of then. */
function Credential({ credential, at }: { credential: CredentialTrace | null; at: number }) {
  if (!credential) {
    return <p className="muted">The engine answered before it read the token.</p>
  }
  const accepted = credential.decision === 'accepted'
  const isSecret = credential.kind === 'secret'
  const past = (time: number) => time <= at
  return (
    <div className="log-credential" data-testid="trace-credential">
      <p className="log-verdict">
        <strong>{kindLabel(credential.kind)}</strong>{' '}
        <span className={`log-badge ${accepted ? 'log-ok' : 'log-bad'}`}>
          {accepted ? 'accepted' : 'refused'}
          {credential.reason && `: ${reasonLabel(credential.reason)}`}
        </span>
      </p>
      <p className="log-explanation" data-testid="credential-explanation">
        <Quoted text={credential.explanation} />
      </p>
      {!accepted && credential.counterfactual && (
        <CounterfactualNote counterfactual={credential.counterfactual} token={credential} />
      )}
      <dl className="log-facts">
        {credential.secretId && (
          <div>
            <dt>{isSecret ? 'Secret' : 'Root secret'}</dt>
            <dd>
              <code>{credential.secretId}</code>
            </dd>
          </div>
        )}
        {credential.abilities && (
          <div>
            <dt>Abilities</dt>
            <dd>
              <NameList names={credential.abilities} className="log-abilities" />
            </dd>
          </div>
        )}
        {credential.insecure !== null && (
          <div>
            <dt>Insecure abilities</dt>
            <dd>{credential.insecure ? 'granted (insecure: true)' : 'not granted'}</dd>
          </div>
        )}
        {credential.createdAt !== null && (
          <div>
            <dt>Created</dt>
            <dd>
              <VirtualTime seconds={credential.createdAt} />
            </dd>
          </div>
        )}
        {(credential.kind === 'secret' || credential.kind === 'authorization') && (
          <div>
            <dt>
              {credential.expiresAt !== null && past(credential.expiresAt) ? 'Expired' : 'Expires'}
            </dt>
            <dd>
              {credential.expiresAt === null ? (
                'never'
              ) : (
                <VirtualTime seconds={credential.expiresAt} />
              )}
            </dd>
          </div>
        )}
        {!isSecret && credential.secretExpiresAt !== null && (
          <div>
            <dt>
              {past(credential.secretExpiresAt)
                ? 'Its secret died (rolled)'
                : 'Its secret dies (rolled)'}
            </dt>
            <dd>
              <VirtualTime seconds={credential.secretExpiresAt} />
            </dd>
          </div>
        )}
      </dl>
    </div>
  )
}

function Calls({ trace }: { trace: RequestTrace }) {
  if (trace.calls.length === 0) {
    return (
      <p className="muted">
        No endpoint was called
        {trace.outcome.status >= 400 ? ': the request stopped before its first call.' : '.'}
      </p>
    )
  }
  return (
    <>
      <ol className="log-calls" aria-label="Calls, in the order they started">
        {trace.calls.map((call, index) => (
          <Call key={index} call={call} token={trace.credential} />
        ))}
      </ol>
      {trace.droppedCalls > 0 && (
        <p className="muted">
          {trace.droppedCalls} more {trace.droppedCalls === 1 ? 'call' : 'calls'} ran and{' '}
          {trace.droppedCalls === 1 ? 'was' : 'were'} not traced.
        </p>
      )}
    </>
  )
}

const GOOD = new Set(['allowed'])

function Call({ call, token }: { call: CallTrace; token: CredentialTrace | null }) {
  const depth = { '--depth': call.depth } as CSSProperties
  return (
    <li
      className={`log-call log-call-${call.decision}`}
      style={depth}
      aria-level={call.depth + 1}
      data-testid="trace-call"
      data-depth={call.depth}
      data-decision={call.decision}
    >
      <div className="log-call-head">
        <span className={`log-badge ${GOOD.has(call.decision) ? 'log-ok' : 'log-bad'}`}>
          {call.decision}
        </span>{' '}
        <code className="log-call-endpoint">
          <Name text={call.endpoint} />
        </code>
        {call.depth > 0 && <span className="log-depth"> inside, depth {call.depth}</span>}
      </div>
      {/*
        An allowed call's explanation already names what let it in, and a refused call may name
        the ability that covered its endpoint only: said for calls that ran and then failed.
      */}
      {call.grant && (call.decision === 'failed' || call.decision === 'aborted') && (
        <p className="log-grant">
          Let in by{' '}
          {call.grant === 'ability' && call.ability ? (
            <>
              ability{' '}
              <code>
                <Name text={call.ability} />
              </code>
            </>
          ) : call.grant === 'secret' ? (
            'the secret key'
          ) : call.grant === 'procedure' ? (
            "the stored procedure's authority"
          ) : (
            'an ability'
          )}
        </p>
      )}
      {call.code && (
        <p className="log-code">
          <CodeHeading code={call.code} />
          {call.status !== null && `, ${call.status} ${reasonPhrase(call.status)}`}
        </p>
      )}
      <p className="log-explanation">
        <Quoted text={call.explanation} />
      </p>
      {call.counterfactual && (
        <CounterfactualNote counterfactual={call.counterfactual} token={token} />
      )}
      {call.warnings && call.warnings.length > 0 && (
        <ul className="log-warnings" aria-label="The engine notes">
          {call.warnings.map((warning, index) => (
            <li key={index}>
              <Quoted text={warning} />
            </li>
          ))}
        </ul>
      )}
    </li>
  )
}

/** Whether the credential or a call already said what would have changed the answer. */
const saidBefore = (trace: RequestTrace) =>
  (trace.credential?.decision === 'refused' && !!trace.credential.counterfactual) ||
  trace.calls.some((call) => call.counterfactual)

/** How the request ended; its counterfactual unless the credential or a call gave it already. */
function Outcome({
  outcome,
  said,
  token,
}: {
  outcome: RequestTrace['outcome']
  said: boolean
  token: CredentialTrace | null
}) {
  return (
    <div className="log-outcome" data-testid="trace-outcome">
      <p>
        <span className={`log-status log-status-${Math.floor(outcome.status / 100)}xx`}>
          {outcome.status} {reasonPhrase(outcome.status)}
        </span>
        {outcome.code && (
          <>
            {' '}
            <CodeHeading code={outcome.code} />
          </>
        )}
      </p>
      {outcome.message && (
        <p className="log-explanation" data-testid="outcome-message">
          <Quoted text={outcome.message} />
        </p>
      )}
      {outcome.code === 'outside_limit' && (
        <p className="log-note" data-testid="outside-limit-note">
          On the wire this refusal reads exactly like a missing ability: the same 401 and the same
          message, as the real service words both. Only the trace tells them apart: an ability
          covers the endpoint, but not the bucket or key the call touched (
          <code>outside_limit</code>, not <code>missing_ability</code>).
        </p>
      )}
      {!said && outcome.counterfactual && (
        <CounterfactualNote counterfactual={outcome.counterfactual} token={token} />
      )}
    </div>
  )
}

/** An error code under its heading, or alone when it has none: never the same word twice. */
function CodeHeading({ code }: { code: string }) {
  const label = codeLabel(code)
  return (
    <>
      {label && <strong>{label}</strong>}
      {label ? ', code ' : 'code '}
      <code>{code}</code>
    </>
  )
}
