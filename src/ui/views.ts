import { createElement, lazy, useState, type ComponentType } from 'react'
import { VIEW_LIST, type ViewId } from './shared/view-ids'

/**
 * Each view's component, in a chunk of its own: the first screen waits for its own view only.
 * `preloadView` starts a view's chunk early (the page's start fetches the one its URL names
 * beside the engine), and `ViewOf` shows a view whose chunk has arrived at once, without the
 * Suspense fallback that React would otherwise show, and hold for its throttle, on the first
 * render; a view not loaded yet suspends as `React.lazy` does.
 */
const LOADERS: Record<ViewId, () => Promise<{ default: ComponentType }>> = {
  secrets: () => import('./account/secrets-view'),
  authorizations: () => import('./authorizations/authorizations-view'),
  console: () => import('./console/console-view'),
  log: () => import('./log/log-view'),
  coverage: () => import('./coverage/coverage-view'),
  watches: () => import('./watches/watches-view'),
  keyv: () => import('./keyv/keyv-view'),
  procedures: () => import('./procedures/procedures-view'),
  settings: () => import('./settings/settings-view'),
}

const loading = new Map<ViewId, Promise<ComponentType>>()
const loaded = new Map<ViewId, ComponentType>()

/** The view's component, loading its chunk once; a chunk that failed to load is asked again. */
export function preloadView(id: ViewId): Promise<ComponentType> {
  let promise = loading.get(id)
  if (!promise) {
    promise = LOADERS[id]().then(({ default: view }) => (loaded.set(id, view), view))
    promise.catch(() => loading.delete(id))
    loading.set(id, promise)
  }
  return promise
}

/** Each view as `React.lazy` loads it, for a view whose chunk has not arrived yet. */
const LAZY = Object.fromEntries(
  VIEW_LIST.map(({ id }) => [id, lazy(() => preloadView(id).then((view) => ({ default: view })))]),
) as unknown as Record<ViewId, ComponentType>

/**
 * The view `id`: at once when its chunk has arrived, else once it has (suspending). The
 * component is chosen once per mount (the app keys it by view), so that a view shown through
 * `React.lazy` is not remounted, its state lost, when its chunk has arrived since.
 */
export function ViewOf({ id }: { id: ViewId }) {
  const [view] = useState(() => loaded.get(id) ?? LAZY[id])
  return createElement(view)
}
