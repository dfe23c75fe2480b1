import { Component, type ErrorInfo, type ReactNode } from 'react'
import { routeHref } from './router'

interface Props {
  /** What failed, in the heading: `Key-value`, `The clock`. */
  what: string
  children: ReactNode
  /** Shown under the error: more ways out. */
  actions?: ReactNode
}

interface State {
  error: Error | null
}

/**
 * Keeps one part of the page failing alone: the error is shown where the part was, with a way
 * out (try again, go to Settings, where the account can be exported or reset), and the rest of
 * the playground stays usable. Each view has one, and so does the header.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null }

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }

  override componentDidCatch(_error: unknown, _info: ErrorInfo): void {
    // React reports it on the console already; what matters here is the page staying whole.
  }

  private retry = () => this.setState({ error: null })

  override render() {
    const { error } = this.state
    if (!error) return this.props.children
    const heading = `${this.props.what} failed`
    return (
      <section role="alert" aria-label={heading} className="panel failed-part">
        <h2>{heading}</h2>
        <p>
          The playground could not show this part. The rest of the page still works; the account is
          as it was.
        </p>
        <pre className="failed-error">
          {error.name}: {error.message}
        </pre>
        <div className="failed-actions">
          <button type="button" onClick={this.retry}>
            Try again
          </button>
          <a href={routeHref('settings')} onClick={this.retry}>
            Go to Settings
          </a>
          {this.props.actions}
        </div>
        <p className="muted">
          In Settings, export the account to keep what it holds, or reset it to start afresh.
        </p>
      </section>
    )
  }
}
