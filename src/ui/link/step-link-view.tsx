import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { useConfig } from '../shared/config'
import { formatTime, messageOf } from '../shared/format'
import { Name } from '../shared/quoted'
import { navHref, routeHref } from '../shared/router'
import { reasonPhrase } from '../shared/wire'
import { ExchangeDetail } from '../log/exchange-detail'
import { endpointOf } from '../log/records'
import { openStepLink } from './step-link-replay'
import '../log/log.css'

/**
 * A failing step opened from a link (`#r=v1.…`): its case replayed on a throwaway account,
 * then the step's exchange in full (decision trace and counterfactual), and the steps before it
 * to open in its place. A link that cannot be opened is said so here, and the rest of the page
 * stays as it was. `withConsole`: whether the page's service runs, and an exchange can be
 * opened in its console.
 */
export default function StepLinkView({
  value,
  withConsole = true,
  onSettled,
}: {
  value: string
  withConsole?: boolean
  /** Called once the link is shown, or why it cannot be. */
  onSettled?: () => void
}) {
  const config = useConfig()
  const opened = useQuery({
    queryKey: ['step-link', config.baseUrl, value],
    queryFn: () => openStepLink(config, value),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
    networkMode: 'always',
    refetchOnWindowFocus: false,
  })
  useEffect(() => {
    if (!opened.isPending) onSettled?.()
  }, [opened.isPending, onSettled])
  const [shown, setShown] = useState<number | null>(null)
  const headingRef = useRef<HTMLHeadingElement>(null)

  if (opened.isPending) {
    return (
      <section className="panel" aria-busy="true" data-testid="step-link">
        <h2>A shared step</h2>
        <p className="loading">Replaying the link&apos;s steps on a throwaway account…</p>
      </section>
    )
  }
  if (opened.isError) {
    return (
      <section className="panel" data-testid="step-link">
        <h2>A shared step</h2>
        <p role="alert" data-testid="link-error">
          This link cannot be opened: {messageOf(opened.error)}
        </p>
        <p>
          Nothing was run and nothing in your account changed.{' '}
          <a href={navHref('secrets')}>Go to the playground</a>
        </p>
      </section>
    )
  }
  const link = opened.data
  const last = link.exchanges.at(-1)
  const record = link.exchanges.find((r) => r.id === shown) ?? last
  return (
    <section className="panel" data-testid="step-link" aria-labelledby="step-link-heading">
      <h2 id="step-link-heading">
        A shared step: step {link.steps} of “<Name text={link.name} />”
      </h2>
      <p className="muted">
        Replayed on a throwaway account of its own: your account, its authorizations and its log are
        untouched.
      </p>
      <dl className="log-facts">
        <div>
          <dt>Made by engine</dt>
          <dd data-testid="link-engine">
            {link.engine}
            {link.engine !== link.here && ` (this playground runs ${link.here})`}
          </dd>
        </div>
        <div>
          <dt>Seed</dt>
          <dd>{link.seed ?? 'none'}</dd>
        </div>
        {link.time !== undefined && (
          <div>
            <dt>Answered at</dt>
            <dd>
              {formatTime(link.time)} <span className="muted">(virtual, when it was recorded)</span>
            </dd>
          </div>
        )}
        <div>
          <dt>Faults</dt>
          <dd>{link.faults}</dd>
        </div>
      </dl>
      {link.differs ? (
        <div role="status" className="log-wire-error" data-testid="link-differs">
          <p>
            Step {link.differs.index} ({link.differs.label}) answers here otherwise than when the
            link was made:
          </p>
          <ul>
            {link.differs.differences.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        </div>
      ) : (
        <p data-testid="link-same">Every step answered as it did when the link was made.</p>
      )}
      {link.skipped && <p className="muted">Not replayed: {link.skipped}</p>}
      {link.notes.length > 0 && (
        <details>
          <summary>Notes of the recording</summary>
          <ul>
            {link.notes.map((note, i) => (
              <li key={i}>{note}</li>
            ))}
          </ul>
        </details>
      )}
      {link.exchanges.length > 1 && (
        <nav aria-label="The steps before it">
          <h3>The exchanges before it</h3>
          <ol className="link-steps" data-testid="link-steps">
            {link.exchanges.map((r) => (
              <li key={r.id}>
                <button
                  type="button"
                  aria-current={r.id === record?.id ? 'true' : undefined}
                  onClick={() => setShown(r.id)}
                >
                  <Name text={endpointOf(r)} />: {r.response.status}{' '}
                  {reasonPhrase(r.response.status)}
                  {r === last && ' (the shared step)'}
                </button>
              </li>
            ))}
          </ol>
        </nav>
      )}
      {record ? (
        <ExchangeDetail
          key={record.id}
          record={record}
          closeHref={routeHref('log')}
          onClose={() => setShown(null)}
          headingRef={headingRef}
          withConsole={withConsole}
        />
      ) : (
        <p>The replay made no exchange: no step reached the service.</p>
      )}
    </section>
  )
}
