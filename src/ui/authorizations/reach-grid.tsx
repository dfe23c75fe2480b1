import type { ReachReport } from '../../engine'
import { CounterfactualNote } from '../shared/counterfactual'
import { ErrorBoundary } from '../shared/error-boundary'
import { messageOf } from '../shared/format'
import { reasonLabel } from '../shared/labels'
import { NameList, Quoted } from '../shared/quoted'
import { useReach } from './insight-api'
import { KeyRegions } from './key-regions'
import { LifeTimeline } from './life-timeline'
import { ReachPackages } from './reach-packages'
import { TightenToUse } from './tighten'

/**
 * "What can this token do?": the engine's reach report (`POST /_account/reach`, decision 055)
 * for the token inspected — which secret it hangs from, whether it can mint, the insecure
 * abilities it holds, when it stops working, the key-value regions it reaches, and every
 * package and endpoint, allowed or refused and why. Each part fails alone.
 */
export function ReachGrid({ token, choiceId }: { token: string; choiceId?: string }) {
  const reach = useReach(token)
  return (
    <section className="reach" aria-labelledby="reach-heading" data-testid="reach">
      <h3 id="reach-heading">What can this token do?</h3>
      {reach.isError ? (
        <p role="alert">The engine could not say: {messageOf(reach.error)}</p>
      ) : !reach.data ? (
        <p className="muted">Asking the engine…</p>
      ) : (
        <>
          <ReachReportView report={reach.data} {...(choiceId ? { choiceId } : {})} />
          {reach.data.token.kind === 'authorization' && (
            <ErrorBoundary what="Tighten to what was used">
              <TightenToUse token={token} />
            </ErrorBoundary>
          )}
        </>
      )}
    </section>
  )
}

export function ReachReportView({ report, choiceId }: { report: ReachReport; choiceId?: string }) {
  return (
    <>
      <ErrorBoundary what="The token's summary">
        <ReachSummary report={report} />
      </ErrorBoundary>
      <div className="reach-columns">
        <ErrorBoundary what="The timeline">
          <LifeTimeline report={report} />
        </ErrorBoundary>
        <ErrorBoundary what="The key-value regions">
          <KeyRegions report={report} />
        </ErrorBoundary>
      </div>
      <ErrorBoundary what="The packages and endpoints">
        <ReachPackages report={report} {...(choiceId ? { choiceId } : {})} />
      </ErrorBoundary>
    </>
  )
}

function ReachSummary({ report }: { report: ReachReport }) {
  const { token } = report
  const secret = token.kind === 'secret'
  const usable = token.state === 'usable'
  return (
    <>
      {!usable && (
        <div className="reach-unusable" data-testid="reach-unusable">
          <p>
            <strong>It reaches nothing now</strong>
            {token.reason && <> ({reasonLabel(token.reason)})</>}:{' '}
            <Quoted text={token.explanation} />
          </p>
          {token.counterfactual && (
            <CounterfactualNote counterfactual={token.counterfactual} token={token} />
          )}
        </div>
      )}
      <dl className="reach-facts">
        <div>
          <dt>Hangs from</dt>
          <dd data-testid="reach-secret">
            {token.secretId === null ? (
              'no secret of this account'
            ) : (
              <>
                secret <code>{token.secretId}</code>
                {secret ? ' (it is that secret)' : ': rolling it ends this authorization'}
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>Can it mint?</dt>
          <dd data-testid="reach-mint">
            {report.delegates ? (
              <>
                <strong>Yes</strong>: it reaches <code>auth.create</code>, so it can mint
                authorizations with any abilities of its secret (the service does not narrow them),
                until it stops.
              </>
            ) : (
              <>
                No: it cannot call <code>auth.create</code>.
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>Insecure abilities</dt>
          <dd data-testid="reach-insecure">
            {secret ? (
              'every one: a secret key reaches every endpoint'
            ) : report.insecureAbilities.length === 0 ? (
              'none'
            ) : (
              <NameList names={report.insecureAbilities} className="reach-insecure" />
            )}
          </dd>
        </div>
      </dl>
    </>
  )
}
