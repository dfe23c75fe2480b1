import type { PlaygroundConfig } from './shared/config'

/** The first thing a keyboard reaches: a way past the header and the nav to the view. */
export function SkipLink() {
  return (
    <a className="skip-link" href="#view" onClick={skipToView}>
      Skip to the view
    </a>
  )
}

/** The fragment holds the route: move focus to the view without touching it. */
function skipToView(event: { preventDefault(): void }) {
  event.preventDefault()
  document.getElementById('view')?.focus()
}

/** The page's name, and the service it plays: its name and its base URL. */
export function Brand({ config }: { config: PlaygroundConfig }) {
  return (
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
  )
}
