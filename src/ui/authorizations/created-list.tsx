import { useQueries } from '@tanstack/react-query'
import type { TokenReport } from '../../engine'
import { routeHref } from '../router'
import { useNow } from '../shared/clock'
import { useConfig } from '../shared/config'
import { Masked } from '../shared/masked'
import {
  forgetAuthorization,
  inspectQuery,
  useSavedAuthorizations,
  type SavedAuthorization,
} from '../shared/tokens'
import { messageOf } from '../format'
import { Quoted } from './quoted'
import { TokenFacts } from './token-details'
import { liveStatus } from './token-state'

/**
 * Every authorization made in this page (here, in the console, by any code), with its live
 * state: the engine's report, refetched when the clock moves or a secret rolls, and moved on
 * locally by the ticking virtual clock so that it flips on time.
 */
export function CreatedList() {
  const { baseUrl } = useConfig()
  const saved = useSavedAuthorizations()
  const reports = useQueries({ queries: saved.map((s) => inspectQuery(baseUrl, s.token)) })
  const now = useNow()
  return (
    <section aria-labelledby="created-heading" className="panel">
      <h2 id="created-heading">Authorizations created</h2>
      {saved.length === 0 ? (
        <p className="empty">
          No authorizations yet. Compose one above, or mint one with auth.create in the console: it
          is listed here.
        </p>
      ) : (
        <ul className="created-list" aria-labelledby="created-heading">
          {saved.map((item, index) => (
            <CreatedItem
              key={item.token}
              item={item}
              report={reports[index]?.data}
              error={reports[index]?.error ?? null}
              now={now}
            />
          ))}
        </ul>
      )}
    </section>
  )
}

function CreatedItem({
  item,
  report,
  error,
  now,
}: {
  item: SavedAuthorization
  report: TokenReport | undefined
  error: Error | null
  now: number | undefined
}) {
  const config = useConfig()
  const status = liveStatus(report, now)
  const abilities = report?.details?.abilities
  return (
    <li className="created-item" data-testid="authorization-row" data-state={status.state}>
      <div className="created-head">
        <span
          className={`token-state token-state-${status.state}`}
          data-testid="authorization-state"
        >
          {status.headline}
        </span>
      </div>
      {status.detail && (
        <p className="muted created-detail">
          <Quoted text={status.detail} />
        </p>
      )}
      {error && <p role="alert">{messageOf(error)}</p>}
      <Masked
        value={item.token}
        label={`the authorization${abilities ? ` for ${abilities.join(', ')}` : ''}`}
      />
      {report?.details && <TokenFacts details={report.details} now={now} listed />}
      <div className="created-actions">
        <a href={routeHref('console', { token: `authorization:${item.token}` })}>Use in console</a>
        <button type="button" onClick={() => forgetAuthorization(config, item.token)}>
          Forget
        </button>
      </div>
    </li>
  )
}
