import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useConfig } from '../shared/config'
import { ErrorBoundary } from '../shared/error-boundary'
import { useWholeLog } from '../shared/exchange-log'
import { messageOf } from '../shared/format'
import { routeHref } from '../shared/router'
import { coverageQuery, type PageCoverage } from './coverage-api'
import { AbilityTable, EndpointCells, RefusalTable } from './coverage-tables'
import { CoverageFlags } from './coverage-flags'
import { CoverageTokens } from './coverage-tokens'
import './coverage.css'

/**
 * Coverage: what the exchanges in this tab's log exercised of authorization — endpoint ×
 * credential kind × outcome × limit dimension, the abilities minted and whether each was seen
 * both letting a call in and refusing one, the refusal codes met — and what was never
 * exercised. Computed by the engine's own coverage code over the control plane (decision 080),
 * as the command line and the kit compute it; read again as the log grows.
 */
export default function CoverageView() {
  const { baseUrl } = useConfig()
  const log = useWholeLog()
  const entries = log.data?.entries ?? []
  const coverage = useQuery({
    ...coverageQuery(baseUrl, entries),
    // Counted once the whole log is read: a part of it would say less than the log exercised.
    enabled: log.complete,
    placeholderData: keepPreviousData,
  })
  const report = coverage.data
  return (
    <div className="coverage-view">
      <section aria-labelledby="view-heading" className="panel coverage-summary">
        <div className="panel-heading">
          <h2 id="view-heading">Coverage</h2>
          {report && report.entries > 0 && <SaveReport report={report} />}
        </div>
        <p className="muted">
          What the exchanges in this tab&apos;s log exercised of the service&apos;s authorization,
          counted by the engine as <code>npx service-playground coverage</code> and the kit count a
          test run: each ability minted seen letting a call in and refusing one, each refusal a
          client should handle met, each endpoint called as an authorization would.
        </p>
        {log.isError && <p role="alert">{messageOf(log.error)}</p>}
        {coverage.isError && (
          <p role="alert">The engine could not count the log: {messageOf(coverage.error)}</p>
        )}
        {!log.complete || (!report && !coverage.isError) ? (
          <p className="muted">Counting the exchange log…</p>
        ) : (
          report && <Score report={report} exchanges={entries.length} />
        )}
      </section>
      {report && report.entries > 0 && (
        <>
          <ErrorBoundary what="The tokens wider than their use">
            <CoverageTokens />
          </ErrorBoundary>
          <ErrorBoundary what="The flags">
            <CoverageFlags report={report} />
          </ErrorBoundary>
          <ErrorBoundary what="The endpoints">
            <EndpointCells report={report} />
          </ErrorBoundary>
          <div className="coverage-pair">
            <ErrorBoundary what="The refusal codes">
              <RefusalTable report={report} />
            </ErrorBoundary>
            <ErrorBoundary what="The abilities">
              <AbilityTable report={report} />
            </ErrorBoundary>
          </div>
        </>
      )}
    </div>
  )
}

function Score({ report, exchanges }: { report: PageCoverage; exchanges: number }) {
  if (report.entries === 0) {
    return (
      <p className="empty" data-testid="coverage-empty">
        Nothing to count yet: call endpoints from the <a href={routeHref('console')}>Console</a>{' '}
        (with a secret, and with authorizations made in{' '}
        <a href={routeHref('authorizations')}>Authorizations</a>), or load a starter scenario from
        Settings, then come back.
      </p>
    )
  }
  return (
    <div className="coverage-score" data-testid="coverage-score">
      <p className="coverage-figure">
        <strong data-testid="coverage-percent">{report.score}%</strong>{' '}
        <span>
          {report.covered} of {report.items} items covered
        </span>
      </p>
      <meter min={0} max={100} value={report.score} aria-label="Coverage score" />
      <p className="muted" data-testid="coverage-read">
        From {report.entries} {report.entries === 1 ? 'call' : 'calls'} in {exchanges}{' '}
        {exchanges === 1 ? 'exchange' : 'exchanges'} of this tab&apos;s log
        {report.skipped > 0 &&
          `; ${report.skipped} the engine could not read (kept by an older page) are left out`}
        .
      </p>
    </div>
  )
}

/** The report as the command line writes it: it adds up with others, and gates with `--min`. */
function SaveReport({ report }: { report: PageCoverage }) {
  function save() {
    const { skipped: _skipped, ...written } = report
    const blob = new Blob([`${JSON.stringify(written, null, 2)}\n`], { type: 'application/json' })
    const url = URL.createObjectURL(blob)
    const link = document.createElement('a')
    link.href = url
    link.download = 'service-coverage.json'
    link.click()
    setTimeout(() => URL.revokeObjectURL(url), 1000)
  }
  return (
    <button type="button" onClick={save}>
      Save report (JSON)
    </button>
  )
}
