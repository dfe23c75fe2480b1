import type { PlaygroundConfig } from './shared/config'

/**
 * The first screen, painted while the engine, its storage and the service worker load. The
 * playground's views replace it once the worker answers the base URL: none of their requests
 * may leave before that.
 */
export function Starting({ config }: { config: PlaygroundConfig }) {
  return (
    <main className="startup" aria-busy="true">
      <h1>Service playground</h1>
      <p role="status" data-testid="starting">
        Starting <code>{config.serviceName}</code> at <code>{config.baseUrl}</code>…
      </p>
    </main>
  )
}
