import { lazy, type ComponentType, type LazyExoticComponent } from 'react'
import type { ViewId } from './router'

export interface ViewInfo {
  id: ViewId
  label: string
  /** Each view is its own chunk: the first screen does not wait for the others. */
  component: LazyExoticComponent<ComponentType>
}

export const VIEWS: readonly ViewInfo[] = [
  { id: 'secrets', label: 'Secrets', component: lazy(() => import('./account/secrets-view')) },
  {
    id: 'authorizations',
    label: 'Authorizations',
    component: lazy(() => import('./authorizations/authorizations-view')),
  },
  { id: 'console', label: 'Console', component: lazy(() => import('./console/console-view')) },
  { id: 'log', label: 'Exchange log', component: lazy(() => import('./log/log-view')) },
  { id: 'keyv', label: 'Key-value', component: lazy(() => import('./keyv/keyv-view')) },
  {
    id: 'procedures',
    label: 'Procedures',
    component: lazy(() => import('./procedures/procedures-view')),
  },
  { id: 'settings', label: 'Settings', component: lazy(() => import('./settings/settings-view')) },
]
