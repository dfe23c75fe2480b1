import type { Endpoint } from '../runtime/endpoint'
import { authPackage } from './auth'
import { corePackage } from './core'
import { keyvPackage } from './keyv'
import { typePackage } from './type'

/** Every built-in endpoint, by name, for one service name. */
export interface Registry {
  get(name: string): Endpoint | undefined
  list(): Endpoint[]
  /** Endpoints whose abilities need `insecure: true`. */
  insecure: readonly string[]
}

/** Names of the endpoints that manage stored procedures, in the `<service>` package. */
export const procManagementNames = (serviceName: string) =>
  ['create', 'update', 'delete'].map((verb) => `${serviceName}.${verb}`)

export function createRegistry(serviceName: string): Registry {
  const insecure = ['auth.create', ...procManagementNames(serviceName)]
  const endpoints = new Map<string, Endpoint>()
  for (const endpoint of [
    ...corePackage,
    ...typePackage,
    ...keyvPackage,
    ...authPackage(insecure),
  ]) {
    endpoints.set(endpoint.name, endpoint)
  }
  return {
    get: (name) => endpoints.get(name),
    list: () => [...endpoints.values()],
    insecure,
  }
}
