import { QueryClientProvider } from '@tanstack/react-query'
import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { BranchBar } from './branches/branch-bar'
import { ClockBar } from './clock/clock-bar'
import { EngineStatus } from './engine-status'
import { Brand, SkipLink } from './page-top'
import { ConfigProvider, type PlaygroundConfig } from './shared/config'
import { ErrorBoundary } from './shared/error-boundary'
import { createQueryClient } from './shared/query-client'
import { ResetAccount } from './shared/reset-account'
import { useRoute, useStepLinkValue } from './shared/router'
import { VIEW_LIST } from './shared/view-ids'
import { AccountSync } from './shared/sync'
import { ViewOf } from './views'
import { ViewsNav } from './views-nav'
import { ScenarioNote } from './scenarios/scenario-note'
import { OperatorBanner } from './settings/operator-banner'

/**
 * The reader of the exchange log, in a chunk of its own (with the wire formats it decodes): the
 * first screen does not wait for it, and it first reads a moment after the page starts anyway.
 */
const ExchangeLogFollower = lazy(() =>
  import('./shared/exchange-log').then((module) => ({ default: module.ExchangeLogFollower })),
)

/** A failing step opened from a link (`#r=v1.…`), in a chunk of its own with the link code. */
const StepLinkView = lazy(() => import('./link/step-link-view'))

/** The playground: the service's settings, its clock, and one view at a time. */
export function App({ config }: { config: PlaygroundConfig }) {
  const [queryClient] = useState(createQueryClient)
  return (
    <ConfigProvider config={config}>
      <QueryClientProvider client={queryClient}>
        <AccountSync config={config} />
        <Suspense fallback={null}>
          <ExchangeLogFollower />
        </Suspense>
        <ErrorBoundary what="The playground">
          <Shell config={config} />
        </ErrorBoundary>
      </QueryClientProvider>
    </ConfigProvider>
  )
}

function Shell({ config }: { config: PlaygroundConfig }) {
  const { view } = useRoute()
  const link = useStepLinkValue()
  const current = VIEW_LIST.find((info) => info.id === view)!
  useFocusOnNewView(view)
  const loadingView = <p className="loading">Loading {current.label.toLowerCase()}…</p>
  return (
    <>
      <SkipLink />
      <header className="app-header">
        <Brand config={config} />
        <ErrorBoundary what="The clock">
          <ClockBar />
        </ErrorBoundary>
        <ErrorBoundary what="The branch">
          <BranchBar />
        </ErrorBoundary>
      </header>
      <EngineStatus />
      <ErrorBoundary what="The operator's controls">
        <OperatorBanner />
      </ErrorBoundary>
      <ViewsNav view={view} />
      <ScenarioNote />
      <main id="view" className="view" tabIndex={-1}>
        {link !== null ? (
          <ErrorBoundary key={`link:${link}`} what="The shared step">
            <Suspense fallback={<p className="loading">Opening the shared step…</p>}>
              <StepLinkView value={link} />
            </Suspense>
          </ErrorBoundary>
        ) : (
          /* Keyed by the view: going to another view starts it afresh, failed or not. */
          <ErrorBoundary key={view} what={current.label} actions={<ResetAccount compact />}>
            <Suspense fallback={loadingView}>
              <ViewOf id={view} fallback={loadingView} />
            </Suspense>
          </ErrorBoundary>
        )}
      </main>
    </>
  )
}

/**
 * When another view opens (the nav, a link such as "Use in console", a scenario loaded), the
 * focus goes to it, rather than staying on a link that is gone or dropping to the page; unless
 * the view has taken it itself (an exchange opened by its link).
 */
function useFocusOnNewView(view: string) {
  const shown = useRef(view)
  useEffect(() => {
    if (shown.current === view) return
    shown.current = view
    const main = document.getElementById('view')
    const active = document.activeElement
    // The link followed is gone with the view it was in, or sits in the nav; anything else that
    // holds the focus (the view itself, a scenario's note) has taken it on purpose.
    const dropped = !active || active === document.body || !active.isConnected
    if (main && (dropped || active.closest('nav'))) main.focus({ preventScroll: true })
  }, [view])
}

/** Shown instead of the playground when it cannot start. */
export function StartupError({ message }: { message: string }) {
  return (
    <main className="startup-error">
      <h1>Service playground</h1>
      <p role="alert" data-testid="startup-error">
        {message}
      </p>
    </main>
  )
}
