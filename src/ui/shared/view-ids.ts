/**
 * The playground's views, named once: their ids (the fragment's path, `#/<id>?…`) and their
 * labels in the nav. Which component shows each is the app's business (`../views.ts`): this
 * module, like the rest of `shared`, imports no view.
 */
export const VIEW_LIST = [
  { id: 'secrets', label: 'Secrets' },
  { id: 'authorizations', label: 'Authorizations' },
  { id: 'console', label: 'Console' },
  { id: 'log', label: 'Exchange log' },
  { id: 'coverage', label: 'Coverage' },
  { id: 'watches', label: 'Watches' },
  { id: 'keyv', label: 'Key-value' },
  { id: 'procedures', label: 'Procedures' },
  { id: 'settings', label: 'Settings' },
] as const

export type ViewId = (typeof VIEW_LIST)[number]['id']

/** The view shown when the fragment names none. */
export const HOME: ViewId = 'secrets'

export const isViewId = (value: string): value is ViewId =>
  VIEW_LIST.some((view) => view.id === value)

/** A view's label in the nav. */
export const viewLabel = (id: ViewId): string => VIEW_LIST.find((view) => view.id === id)!.label
