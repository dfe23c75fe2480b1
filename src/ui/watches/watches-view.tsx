import type { WatchReport } from '../../engine'
import { callText } from '../authorizations/counterexample'
import { useConfig } from '../shared/config'
import { CounterfactualNote } from '../shared/counterfactual'
import { ErrorBoundary } from '../shared/error-boundary'
import { formatTime, messageOf } from '../shared/format'
import { Name, Quoted } from '../shared/quoted'
import { useAccountMutation } from '../shared/queries'
import { reasonPhrase } from '../shared/wire'
import { WatchForm } from './watch-form'
import { removeWatch, useWatches } from './watches-api'
import './watches.css'

/**
 * Watches: assertions a person pins ("this token can keyv.get users/alice/1", "this one cannot
 * keyv.set"), kept with the account (its export carries them) and asked again of the engine
 * whenever the account or the clock changes, each green or red with the engine's reason
 * (decision 088).
 */
export default function WatchesView() {
  const watches = useWatches()
  const report = watches.data
  return (
    <div className="watches-view">
      <section aria-labelledby="view-heading" className="panel">
        <div className="panel-heading">
          <h2 id="view-heading">Watches</h2>
        </div>
        <p className="muted">
          What you expect of your tokens, kept with the account and asked again of the engine every
          time the account or the clock changes: a roll, a key, a procedure, a moved clock. Each
          says whether it still holds, and why.
        </p>
        {watches.isError && <p role="alert">{messageOf(watches.error)}</p>}
        {report && (
          <p className="watch-count" role="status" data-testid="watch-count">
            {report.watches.length === 0
              ? 'No watch yet: pin one below, or from an answer in the console.'
              : report.failing === 0
                ? `All ${report.watches.length} hold, at ${formatTime(report.at)}.`
                : `${report.failing} of ${report.watches.length} ${report.failing === 1 ? 'does' : 'do'} not hold, at ${formatTime(report.at)}.`}
          </p>
        )}
        {report && report.watches.length > 0 && (
          <ul className="watch-list" aria-label="Watches">
            {report.watches.map((watch) => (
              <li
                key={watch.id}
                className={`watch ${watch.holds ? 'watch-holds' : 'watch-fails'}`}
                data-testid="watch"
                data-holds={watch.holds ? 'true' : 'false'}
              >
                <ErrorBoundary what="This watch">
                  <WatchItem watch={watch} />
                </ErrorBoundary>
              </li>
            ))}
          </ul>
        )}
        <WatchForm />
      </section>
    </div>
  )
}

function WatchItem({ watch }: { watch: WatchReport }) {
  const { baseUrl } = useConfig()
  const remove = useAccountMutation(() => removeWatch(baseUrl, watch.id))
  const { result } = watch
  const subject = watch.label ?? (watch.subject?.kind === 'secret' ? 'a secret key' : 'a token')
  return (
    <>
      <p className="watch-head">
        <span className={`watch-badge ${watch.holds ? 'watch-ok' : 'watch-bad'}`}>
          {watch.holds ? '✓ holds' : '✗ does not hold'}
        </span>{' '}
        <span className="watch-claim">
          <Name text={subject} /> {watch.expect === 'allowed' ? 'can' : 'cannot'} call{' '}
          <code>
            <Name text={callText({ ...watch.call, at: 0 })} edges={false} />
          </code>
        </span>
      </p>
      <p className="watch-result" data-testid="watch-result">
        <span className="muted">The engine now: </span>
        {result.status} {reasonPhrase(result.status)}, {result.decision}
        {result.code && (
          <>
            {' '}
            (<code>{result.code}</code>)
          </>
        )}
        {result.decision !== 'allowed' && result.explanation && (
          <>
            : <Quoted text={result.explanation} />
          </>
        )}
      </p>
      {!watch.holds && watch.expect === 'allowed' && result.counterfactual && (
        <CounterfactualNote counterfactual={result.counterfactual} token={watch.subject} />
      )}
      <button
        type="button"
        className="link"
        aria-label={`Remove the watch: ${subject} ${watch.expect === 'allowed' ? 'can' : 'cannot'} call ${watch.call.endpoint}`}
        onClick={() => !remove.isPending && remove.mutate()}
      >
        Remove
      </button>
      {remove.isError && <p role="alert">{messageOf(remove.error)}</p>}
    </>
  )
}
