import type { Endpoint } from '../runtime/endpoint'
import type { Store } from '../store'
import { authPackage } from './auth'
import { collectionsPackage } from './collections'
import { compileCore } from './compile'
import { deployCore, deployPackage } from './deploy'
import { corePackage } from './core'
import { enumPackage } from './enum'
import { keyvPackage } from './keyv'
import { procsPackage, storedProcedure } from './procs'
import { typePackage } from './type'

/** Every built-in endpoint, by name, for one service name. */
export interface Registry {
  get(name: string): Endpoint | undefined
  /** A built-in endpoint (at once), or the stored procedure `lib.<name>` (once read). */
  resolve(name: string, store: Store): Endpoint | Promise<Endpoint | undefined>
  list(): Endpoint[]
  /** Endpoints whose abilities need `insecure: true`. */
  insecure: readonly string[]
  /**
   * What the package of `name` holds (`type.string.missing` → the endpoints and packages right
   * under `type.string`), in order; for a package's own name, what it holds (`type` → `type.*`);
   * none when no built-in lives under that package.
   */
  neighbours(name: string): string[]
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
    compileCore,
    deployCore,
    ...deployPackage(serviceName),
    ...collectionsPackage,
  ]
  for (const endpoint of all) endpoints.set(endpoint.name, endpoint)
  insecure = all.filter((endpoint) => endpoint.insecure).map((endpoint) => endpoint.name)
  return {
    get: (name) => endpoints.get(name),
    resolve: (name, store) => endpoints.get(name) ?? storedProcedure(store, name),
    list: () => [...endpoints.values()],
    neighbours(name) {
      const holds = (pkg: string) => [...endpoints.keys()].some((n) => n.startsWith(`${pkg}.`))
      const parent = holds(name) ? name : name.slice(0, Math.max(0, name.lastIndexOf('.')))
      if (parent === '') return []
      const below = new Set<string>()
      for (const known of endpoints.keys()) {
        if (!known.startsWith(`${parent}.`)) continue
        const next = known.slice(parent.length + 1).split('.')[0]!
        below.add(`${parent}.${next}`)
      }
      return [...below].sort()
    },
    get insecure() {
      return insecure
    },
  }
}
