import { useQuery } from '@tanstack/react-query'
import { useConfig } from './config'
import { catalogueQuery } from './queries'

export type { EndpointInfo, ParamSpec } from './api'

/** The engine's endpoints, sorted by name. */
export function useCatalogue() {
  const { baseUrl } = useConfig()
  return useQuery({
    ...catalogueQuery(baseUrl),
    select: (endpoints) => [...endpoints].sort((a, b) => a.name.localeCompare(b.name)),
  })
}

/** Every package name the catalogue implies: `type.string.reverse` gives `type` and `type.string`. */
export function packagesOf(endpoints: ReadonlyArray<{ name: string }>): string[] {
  const packages = new Set<string>()
  for (const { name } of endpoints) {
    const parts = name.split('.')
    for (let i = 1; i < parts.length; i++) packages.add(parts.slice(0, i).join('.'))
  }
  return [...packages].sort()
}
