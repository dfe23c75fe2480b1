import { useCallback, useSyncExternalStore } from 'react'
import { HOME, isViewId, type ViewId } from './view-ids'

export type { ViewId } from './view-ids'

/**
 * The playground's views live in the page URL's fragment (`#/console?endpoint=core.ping`), so
 * that a view, and the state a view keeps there, can be shared as a link; the query string
 * stays the configuration's (`?baseUrl=&serviceName=`). Each value a view keeps in the URL
 * has one hook, built on `useRouteParam`.
 */

export interface Route {
  view: ViewId
  params: URLSearchParams
}

const REPLACED = 'playground:route'

export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#\/?/, '').split('?', 2)
  return { view: isViewId(path) ? path : HOME, params: new URLSearchParams(search) }
}

/** The fragment for a view and its parameters. */
export function routeHref(view: ViewId, params?: URLSearchParams | Record<string, string>): string {
  const search = new URLSearchParams(params).toString()
  return `#/${view}${search ? `?${search}` : ''}`
}

/**
 * Each view's parameters as it was last left, for the page's life: the nav goes back to a
 * view as it was (the console's request, the composer's abilities, the open bucket).
 */
const lastParams = new Map<ViewId, string>()

function remember(hash: string): void {
  const route = parseRoute(hash)
  lastParams.set(route.view, route.params.toString())
}

/**
 * Forgets how every view was left, but for the one shown: after a reset (or a scenario loaded)
 * the tokens, keys and exchanges they named are gone, and the nav opens each view afresh.
 */
export function forgetViewParams(): void {
  const shown = parseRoute(window.location.hash).view
  for (const view of [...lastParams.keys()]) if (view !== shown) lastParams.delete(view)
}

/** Sets how the nav opens a view next, as if it had been left so (a scenario's first step). */
export function presetViewParams(view: ViewId, params: Record<string, string>): void {
  lastParams.set(view, new URLSearchParams(params).toString())
}

/** The nav's link to a view: the view as it was last left. */
export const navHref = (view: ViewId): string =>
  routeHref(view, new URLSearchParams(lastParams.get(view) ?? ''))

function subscribe(onChange: () => void) {
  const changed = () => {
    remember(window.location.hash)
    onChange()
  }
  window.addEventListener('hashchange', changed)
  window.addEventListener(REPLACED, changed)
  return () => {
    window.removeEventListener('hashchange', changed)
    window.removeEventListener(REPLACED, changed)
  }
}

/** The current fragment, as a view and its parameters. */
export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash)
  return parseRoute(hash)
}

/**
 * A failing step's link in the fragment (`#r=v1.…`, decision 093): its value, or `null` when
 * the fragment names a view instead.
 */
export function useStepLinkValue(): string | null {
  return stepLinkValueOf(useSyncExternalStore(subscribe, () => window.location.hash))
}

/** The step link a fragment holds (`#r=…`), or `null`. */
export const stepLinkValueOf = (hash: string): string | null =>
  hash.startsWith('#r=') ? hash.slice(3) : null

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
  remember(href)
  window.dispatchEvent(new Event(REPLACED))
}

/**
 * One value a view keeps in the URL, and a setter that rewrites it in place (`null` removes
 * it; an empty string is kept, as a value chosen), leaving the view's other parameters as
 * they are. While another view is shown, the
 * value reads as `null` and setting it does nothing.
 */
export function useRouteParam(
  view: ViewId,
  name: string,
): [string | null, (value: string | null) => void] {
  const route = useRoute()
  const here = route.view === view
  const value = here ? route.params.get(name) : null
  const set = useCallback(
    (next: string | null) => {
      const current = parseRoute(window.location.hash)
      const params = new URLSearchParams(current.view === view ? current.params : undefined)
      if (next === null) params.delete(name)
      else params.set(name, next)
      replaceParams(view, params)
    },
    [view, name],
  )
  return [value, set]
}
