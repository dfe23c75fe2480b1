import { useSyncExternalStore } from 'react'

/**
 * The playground's views live in the page URL's fragment (`#/console?e=core.ping`), so that a
 * view, and the state a view chooses to keep there, can be shared as a link; the query string
 * stays the configuration's (`?baseUrl=&serviceName=`).
 */
export const VIEW_IDS = [
  'secrets',
  'authorizations',
  'console',
  'log',
  'keyv',
  'procedures',
  'settings',
] as const

export type ViewId = (typeof VIEW_IDS)[number]

export interface Route {
  view: ViewId
  params: URLSearchParams
}

const REPLACED = 'playground:route'

export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#\/?/, '').split('?', 2)
  const view = (VIEW_IDS as readonly string[]).includes(path) ? (path as ViewId) : 'secrets'
  return { view, params: new URLSearchParams(search) }
}

/** The fragment for a view and its parameters. */
export function routeHref(view: ViewId, params?: URLSearchParams | Record<string, string>): string {
  const search = new URLSearchParams(params).toString()
  return `#/${view}${search ? `?${search}` : ''}`
}

function subscribe(onChange: () => void) {
  window.addEventListener('hashchange', onChange)
  window.addEventListener(REPLACED, onChange)
  return () => {
    window.removeEventListener('hashchange', onChange)
    window.removeEventListener(REPLACED, onChange)
  }
}

/** The current fragment, as a view and its parameters. */
export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash)
  return parseRoute(hash)
}

/** Goes to a view (a new history entry). */
export function navigate(view: ViewId, params?: URLSearchParams | Record<string, string>): void {
  window.location.hash = routeHref(view, params)
}

/** Rewrites the current view's parameters in place (no history entry), e.g. as a form changes. */
export function replaceParams(
  view: ViewId,
  params: URLSearchParams | Record<string, string>,
): void {
  const href = routeHref(view, params)
  if (window.location.hash === href) return
  window.history.replaceState(window.history.state, '', href)
  window.dispatchEvent(new Event(REPLACED))
}
