import { useQueries } from '@tanstack/react-query'
import { useState } from 'react'
import type { TokenReport } from '../../engine'
import { useNow } from '../shared/clock'
import { useConfig } from '../shared/config'
import { messageOf } from '../shared/format'
import { Masked } from '../shared/masked'
import { inspectQuery } from '../shared/queries'
import { Quoted, visibleText } from '../shared/quoted'
import { routeHref } from '../shared/router'
import { useRemembered, useRememberedActions, type SavedAuthorization } from '../shared/tokens'
import { TokenFacts } from './token-details'
import { liveStatus } from '../shared/token-state'

/**
 * Every authorization made in this page (here, in the console, by any code), with its live
 * state: the engine's report, refetched when the clock moves or a secret rolls, and moved on
 * locally by the ticking virtual clock so that it flips on time. Forgetting one can be undone.
 */
export function CreatedList() {
  const { baseUrl } = useConfig()
  const remembered = useRemembered()
  const saved = remembered.data ?? []
  const reports = useQueries({ queries: saved.map((s) => inspectQuery(baseUrl, s.token)) })
  const now = useNow()
  const { forget, restore } = useRememberedActions()
  const [forgotten, setForgotten] = useState<SavedAuthorization | null>(null)

  return (
    <section aria-labelledby="created-heading" className="panel">
      <h2 id="created-heading">Authorizations created</h2>
      {remembered.isError && <p role="alert">{messageOf(remembered.error)}</p>}
      {forgotten && (
        <p role="status" className="forgotten">
          Forgotten: the page no longer lists it (it still works until it expires or its secret
          dies).{' '}
          <button
            type="button"
            onClick={() => void restore([forgotten]).then(() => setForgotten(null))}
          >
            Undo
          </button>
        </p>
      )}
      {remembered.isSuccess && saved.length === 0 ? (
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
              onForget={() => void forget(item.token).then(() => setForgotten(item))}
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
  onForget,
}: {
  item: SavedAuthorization
  report: TokenReport | undefined
  error: Error | null
  now: number | undefined
  onForget: () => void
}) {
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
        label={`the authorization${abilities ? ` for ${visibleText(abilities.join(', '))}` : ''}`}
      />
      {report?.details && <TokenFacts details={report.details} now={now} listed />}
      <div className="created-actions">
        <a href={routeHref('console', { token: `authorization:${item.token}` })}>Use in console</a>
        <button type="button" onClick={onForget}>
          Forget
        </button>
      </div>
    </li>
  )
}
