import { QueryClientProvider } from '@tanstack/react-query'
import { Suspense, useState } from 'react'
import { ClockBar } from './clock/clock-bar'
import type { PlaygroundConfig } from './config'
import { createQueryClient } from './query-client'
import { routeHref, useRoute } from './router'
import { ConfigProvider } from './shared/config'
import { AccountSync } from './sync'
import { VIEWS } from './views'

/** The playground: the service's settings, its clock, and one view at a time. */
export function App({ config }: { config: PlaygroundConfig }) {
  const [queryClient] = useState(createQueryClient)
  return (
    <ConfigProvider config={config}>
      <QueryClientProvider client={queryClient}>
        <AccountSync config={config} />
        <Shell config={config} />
      </QueryClientProvider>
    </ConfigProvider>
  )
}

function Shell({ config }: { config: PlaygroundConfig }) {
  const { view } = useRoute()
  const current = VIEWS.find((info) => info.id === view)!
  const View = current.component
  return (
    <>
      <a className="skip-link" href="#view" onClick={skipToView}>
        Skip to the view
      </a>
      <header className="app-header">
        <div className="brand">
          <h1>Service playground</h1>
          <dl>
            <div>
              <dt>Service name</dt>
              <dd data-testid="service-name">{config.serviceName}</dd>
            </div>
            <div>
              <dt>Base URL</dt>
              <dd data-testid="base-url">{config.baseUrl}</dd>
            </div>
          </dl>
        </div>
        <ClockBar />
      </header>
      <nav aria-label="Views" className="views-nav">
        <ul>
          {VIEWS.map((info) => (
            <li key={info.id}>
              <a href={routeHref(info.id)} aria-current={info.id === view ? 'page' : undefined}>
                {info.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="view" className="view" tabIndex={-1}>
        <Suspense fallback={<p className="loading">Loading {current.label.toLowerCase()}…</p>}>
          <View />
        </Suspense>
      </main>
    </>
  )
}

/** The fragment holds the route: move focus to the view without touching it. */
function skipToView(event: { preventDefault(): void }) {
  event.preventDefault()
  document.getElementById('view')?.focus()
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
