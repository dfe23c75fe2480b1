// The `$schema` a written file carries (decision 085): the path from the file's folder to its
// schema in the installed kit (`node_modules/service-playground/schemas/…` in a project, or
// this checkout's `schemas/`), so an editor that opens the file checks it as it is edited.
import { existsSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The schemas the kit publishes, one per file format it reads or writes (a HAR only read). */
export type SchemaName =
  'cases' | 'coverage' | 'account' | 'shadow-report' | 'har' | 'link' | 'tokens'

let folder: string | undefined

/** The kit's `schemas/` folder: the first one above this module (a source file or a bundle). */
export function schemasFolder(): string {
  if (folder) return folder
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    if (existsSync(join(dir, 'schemas', 'cases.json'))) return (folder = join(dir, 'schemas'))
    const up = dirname(dir)
    if (up === dir) throw new Error('the kit has no schemas/ folder beside it: reinstall it')
    dir = up
  }
}

/**
 * `$schema` for a file written at `file` (absolute): the relative path to schema `name`, with
 * `/` on every system, so the same layout writes the same bytes.
 */
export function schemaRef(name: SchemaName, file: string): string {
  const path = relative(dirname(file), join(schemasFolder(), `${name}.json`))
    .split(sep)
    .join('/')
  return path.startsWith('.') ? path : `./${path}`
}
