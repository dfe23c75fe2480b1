import { QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import { AccountPanel } from './account/account-panel'
import { CallPanel } from './call/call-panel'
import type { PlaygroundConfig } from './config'
import { createQueryClient } from './query-client'
import { AccountSync } from './sync'

/** The playground: the service's settings, its account and a way to call it. */
export function App({ config }: { config: PlaygroundConfig }) {
  const [queryClient] = useState(createQueryClient)
  return (
    <QueryClientProvider client={queryClient}>
      <AccountSync config={config} />
      <header className="app-header">
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
      </header>
      <main className="panels">
        <AccountPanel baseUrl={config.baseUrl} />
        <CallPanel baseUrl={config.baseUrl} serviceName={config.serviceName} />
      </main>
    </QueryClientProvider>
  )
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
