import { QueryClientProvider } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { Brand, SkipLink } from '../page-top'
import { ConfigProvider, type PlaygroundConfig } from '../shared/config'
import { ErrorBoundary } from '../shared/error-boundary'
import { createQueryClient } from '../shared/query-client'
import { parseRoute, useStepLinkValue } from '../shared/router'
import { ViewsNav } from '../views-nav'
import StepLinkView from './step-link-view'

/**
 * The page a step's link opens (`#r=…` when the page starts, decision 106): the link's view
 * alone, shown at once, before the page's own service has started. Its replay runs in this page
 * on a throwaway account of its own, and needs neither the service worker nor the person's
 * account. Only once `started` (the page's service starting) has resolved is an exchange
 * offered to the console, which lists the account's secrets; what reads the account before
 * then (a counterfactual's clock) waits for the service in the page's `fetch` (decision 111). Going to a view leaves this page for the playground (`boot` renders it then);
 * `boot` starts the service once the step is shown (`onShown`).
 */
export function LinkPage({
  config,
  value,
  started,
  onShown,
}: {
  config: PlaygroundConfig
  value: string
  started: Promise<unknown>
  /** Called once the step is on screen, or the reason it cannot be. */
  onShown?: () => void
}) {
  const [queryClient] = useState(createQueryClient)
  const shown = useStepLinkValue() ?? value
  const running = useResolved(started)
  return (
    <ConfigProvider config={config}>
      <QueryClientProvider client={queryClient}>
        <SkipLink />
        <header className="app-header">
          <Brand config={config} />
        </header>
        <ViewsNav view={parseRoute('').view} />
        <main id="view" className="view" tabIndex={-1}>
          <ErrorBoundary key={`link:${shown}`} what="The shared step">
            <StepLinkView value={shown} withConsole={running} onSettled={onShown} />
          </ErrorBoundary>
        </main>
      </QueryClientProvider>
    </ConfigProvider>
  )
}

/** Whether `promise` has resolved (a rejection leaves it `false`). */
function useResolved(promise: Promise<unknown>): boolean {
  const [resolved, setResolved] = useState(false)
  useEffect(() => {
    let on = true
    promise.then(
      () => on && setResolved(true),
      () => undefined,
    )
    return () => {
      on = false
    }
  }, [promise])
  return resolved
}
