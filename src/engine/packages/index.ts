import type { Endpoint } from '../runtime/endpoint'
import type { Store } from '../store'
import { authPackage } from './auth'
import { corePackage } from './core'
import { enumPackage } from './enum'
import { keyvPackage } from './keyv'
import { procsPackage, storedProcedure } from './procs'
import { typePackage } from './type'

/** Every built-in endpoint, by name, for one service name. */
export interface Registry {
  get(name: string): Endpoint | undefined
  /** A built-in endpoint, or the stored procedure `lib.<name>`. */
  resolve(name: string, store: Store): Promise<Endpoint | undefined>
  list(): Endpoint[]
  /** Endpoints whose abilities need `insecure: true`. */
  insecure: readonly string[]
}

export function createRegistry(serviceName: string): Registry {
  const endpoints = new Map<string, Endpoint>()
  // The insecure list is read off the endpoints' own flags, once they all exist.
  let insecure: readonly string[] = []
  const all = [
    ...corePackage,
    ...typePackage,
    ...enumPackage,
    ...keyvPackage,
    ...authPackage(() => insecure),
    ...procsPackage(serviceName),
  ]
  for (const endpoint of all) endpoints.set(endpoint.name, endpoint)
  insecure = all.filter((endpoint) => endpoint.insecure).map((endpoint) => endpoint.name)
  return {
    get: (name) => endpoints.get(name),
    resolve: async (name, store) => endpoints.get(name) ?? storedProcedure(store, name),
    list: () => [...endpoints.values()],
    get insecure() {
      return insecure
    },
  }
}
