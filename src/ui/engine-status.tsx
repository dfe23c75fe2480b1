import { useSyncExternalStore } from 'react'
import { messageOf } from './shared/format'

/**
 * What the page knows about its engine's service worker beyond "it answers": the browser
 * stopped the worker and the page started it again (requests meanwhile were held, none left
 * the browser), or the worker gave up waiting and answered 503 itself.
 */
export type EngineEvent =
  | { kind: 'restarted'; at: number }
  | { kind: 'failed'; at: number; message: string }
  | { kind: 'not-running'; at: number }

let current: EngineEvent | null = null
const listeners = new Set<() => void>()

/** Reports an event to the banner (boot calls it from the worker's messages). */
export function reportEngine(event: EngineEvent | null): void {
  current = event
  for (const listener of listeners) listener()
}

export const engineFailed = (error: unknown): EngineEvent => ({
  kind: 'failed',
  at: Date.now(),
  message: messageOf(error),
})

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

const time = (at: number) => new Date(at).toLocaleTimeString('en-GB')

/** The banner under the header, while there is something to say. */
export function EngineStatus() {
  const event = useSyncExternalStore(subscribe, () => current)
  if (!event) return null
  const dismiss = (
    <button type="button" className="link" onClick={() => reportEngine(null)}>
      Dismiss
    </button>
  )
  if (event.kind === 'restarted') {
    return (
      <p role="status" className="engine-status" data-testid="engine-status">
        The browser stopped the service worker that answers the base URL; the playground started it
        again at {time(event.at)}. Requests made meanwhile waited for the engine: none left the
        browser. {dismiss}
      </p>
    )
  }
  return (
    <div role="alert" className="engine-status engine-down" data-testid="engine-status">
      <p>
        {event.kind === 'failed'
          ? `The engine could not be started again (${event.message}).`
          : 'The engine did not answer in time: the service worker answered a request 503 "engine not running".'}{' '}
        Reload the page to start it afresh; the account is kept.
      </p>
      <button type="button" onClick={() => window.location.reload()}>
        Reload
      </button>{' '}
      {dismiss}
    </div>
  )
}
