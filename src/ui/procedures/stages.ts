import type { ProcRecord } from './api'

/**
 * A stored procedure with its stages, as the engine keeps them: the release under its name,
 * the dev stage (what a deploy without `-release` stores) as `<name>:dev` beside it. `lib.<name>`
 * calls the release, or the dev stage while nothing is released; `lib.<name>:dev` the dev
 * stage, or the release.
 */
export interface StoredProcedure {
  name: string
  release?: ProcRecord
  dev?: ProcRecord
}

const DEV = ':dev'

/** The records of the control plane, one entry per procedure, by name. */
export function groupStages(records: readonly ProcRecord[]): StoredProcedure[] {
  const byName = new Map<string, StoredProcedure>()
  for (const record of records) {
    const dev = record.name.endsWith(DEV)
    const name = dev ? record.name.slice(0, -DEV.length) : record.name
    const entry = byName.get(name) ?? { name }
    if (dev) entry.dev = record
    else entry.release = record
    byName.set(name, entry)
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}
