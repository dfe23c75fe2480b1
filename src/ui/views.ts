import { createElement, useEffect, useState, type ComponentType, type ReactNode } from 'react'
import type { ViewId } from './shared/view-ids'

/**
 * Each view's component, in a chunk of its own: the first screen waits for its own view only.
 * `preloadView` starts a view's chunk early (the page's start fetches the one its URL names
 * beside the engine, the exchange log's once the first screen is shown, and any other when a
 * person points at or focuses its link: `prefetchView`),
 * and `ViewOf` shows a view whose chunk has arrived at once, and one whose chunk has not the
 * moment it arrives, without React's Suspense, which holds content revealed after a fallback
 * back for its throttle (300 ms).
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

/** Starts loading a view's chunk, for a view likely to be opened next; a failure is left to `ViewOf`. */
export function prefetchView(id: ViewId): void {
  preloadView(id).catch(() => undefined)
}

/**
 * The view `id`: at once when its chunk has arrived, else `fallback` until it has; a chunk that
 * fails to load throws its error to the nearest error boundary, whose "Try again" asks again.
 * The component is chosen once per mount (the app keys it by view).
 */
export function ViewOf({ id, fallback }: { id: ViewId; fallback: ReactNode }) {
  const [shown, setShown] = useState<{ view?: ComponentType; error?: unknown }>(() => {
    const view = loaded.get(id)
    return view ? { view } : {}
  })
  const waiting = shown.view === undefined && shown.error === undefined
  useEffect(() => {
    if (!waiting) return
    let live = true
    preloadView(id).then(
      (view) => live && setShown({ view }),
      (error: unknown) => live && setShown({ error }),
    )
    return () => {
      live = false
    }
  }, [id, waiting])
  if (shown.error !== undefined) throw shown.error
  return shown.view ? createElement(shown.view) : fallback
}
