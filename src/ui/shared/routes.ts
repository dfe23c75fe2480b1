import { lazy, type ComponentType, type LazyExoticComponent } from 'react'

/**
 * The playground's views, written once: their ids (the fragment's path, `#/<id>?…`), their
 * labels in the nav, and their components. Each view is its own chunk: the first screen does
 * not wait for the others.
 */
export const VIEWS = [
  { id: 'secrets', label: 'Secrets', component: lazy(() => import('../account/secrets-view')) },
  {
    id: 'authorizations',
    label: 'Authorizations',
    component: lazy(() => import('../authorizations/authorizations-view')),
  },
  { id: 'console', label: 'Console', component: lazy(() => import('../console/console-view')) },
  { id: 'log', label: 'Exchange log', component: lazy(() => import('../log/log-view')) },
  { id: 'keyv', label: 'Key-value', component: lazy(() => import('../keyv/keyv-view')) },
  {
    id: 'procedures',
    label: 'Procedures',
    component: lazy(() => import('../procedures/procedures-view')),
  },
  {
    id: 'settings',
    label: 'Settings',
    component: lazy(() => import('../settings/settings-view')),
  },
] as const satisfies ReadonlyArray<{
  id: string
  label: string
  component: LazyExoticComponent<ComponentType>
}>

export type ViewId = (typeof VIEWS)[number]['id']

/** The view shown when the fragment names none. */
export const HOME: ViewId = 'secrets'

export const isViewId = (value: string): value is ViewId => VIEWS.some((view) => view.id === value)
