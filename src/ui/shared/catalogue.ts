import { queryOptions, useQuery } from '@tanstack/react-query'
import { control } from './control'
import { useConfig } from './config'

/** A declared input or argument, as `GET /_account/endpoints` describes it. */
export interface ParamSpec {
  type: string
  required?: boolean
  default?: unknown
  doc?: string
}

/** One endpoint of the engine's own catalogue. */
export interface EndpointInfo {
  name: string
  summary: string
  insecure: boolean
  input: ParamSpec | null
  args: Record<string, ParamSpec>
}

export const catalogueQuery = (baseUrl: string) =>
  queryOptions({
    queryKey: ['catalogue', baseUrl],
    queryFn: () => control<EndpointInfo[]>(baseUrl, 'GET', 'endpoints'),
    // The catalogue is fixed for an engine's life.
    staleTime: Infinity,
  })

/** The engine's endpoints, sorted by name. */
export function useCatalogue() {
  const { baseUrl } = useConfig()
  return useQuery({
    ...catalogueQuery(baseUrl),
    select: (endpoints) => [...endpoints].sort((a, b) => a.name.localeCompare(b.name)),
  })
}

/** Every package name the catalogue implies: `type.string.reverse` gives `type` and `type.string`. */
export function packagesOf(endpoints: readonly EndpointInfo[]): string[] {
  const packages = new Set<string>()
  for (const { name } of endpoints) {
    const parts = name.split('.')
    for (let i = 1; i < parts.length; i++) packages.add(parts.slice(0, i).join('.'))
  }
  return [...packages].sort()
}
