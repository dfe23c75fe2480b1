import type { TestProject } from 'vitest/node'
import { startCluster, type ClusterAddress } from './postgres'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The throwaway PostgreSQL cluster of this run; `createDatabase` makes a test file its own. */
    postgres: ClusterAddress
  }
}

/**
 * Vitest global setup of the `postgres` project: one throwaway cluster for the whole run,
 * removed after it. Without PostgreSQL installed this fails, loudly: the tests that need it
 * are never skipped.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startCluster()
  project.provide('postgres', { host: cluster.host, port: cluster.port, user: cluster.user })
  return () => cluster.remove()
}
