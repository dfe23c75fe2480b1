import { InvalidError } from './errors'
import { LIB } from './settings'
import { trimBaseUrl } from './wire/base-url'

/**
 * Stages of a stored procedure. `<service>.deploy` (and `core.deploy`) puts a procedure in its
 * **dev** stage, called at `lib.<name>:dev`; a **release** (`release: true`, `-release` on the
 * command line, or `<service>.create` and `.update`) makes it the procedure `lib.<name>` calls.
 * The dev stage is stored beside the release as a record named `<name>:dev` (no procedure name
 * holds a `:`), and a release removes it, so that both stages then call the release:
 *
 * - `lib.<name>` calls the release, or the dev stage while nothing is released;
 * - `lib.<name>:dev` calls the dev stage, or the release when there is no newer dev stage.
 *
 * An ability for `lib.<name>` (or `lib`) reaches both stages.
 */
export type Stage = 'dev' | 'release'

export const DEV_SUFFIX = ':dev'

/** The record a stage of `name` is stored under. */
export function recordName(name: string, stage: Stage): string {
  return stage === 'dev' ? `${name}${DEV_SUFFIX}` : name
}

/** A stored record's procedure name and stage: `greet:dev` → `greet`, dev. */
export function stageOfRecord(record: string): { name: string; stage: Stage } {
  return record.endsWith(DEV_SUFFIX)
    ? { name: record.slice(0, -DEV_SUFFIX.length), stage: 'dev' }
    : { name: record, stage: 'release' }
}

/** `lib.greet:dev` → `greet` in the dev stage; `lib.greet` → `greet` released; else undefined. */
export function calledStage(endpoint: string): { name: string; stage: Stage } | undefined {
  if (!endpoint.startsWith(`${LIB}.`)) return undefined
  return stageOfRecord(endpoint.slice(LIB.length + 1))
}

/** The records `lib.<name>[:dev]` reads, the first found first. */
export function lookupOrder(name: string, stage: Stage): string[] {
  const dev = recordName(name, 'dev')
  return stage === 'dev' ? [dev, name] : [name, dev]
}

/** An endpoint name without its stage: what abilities are checked against. */
export function withoutStage(endpoint: string): string {
  const called = calledStage(endpoint)
  return called?.stage === 'dev' ? `${LIB}.${called.name}` : endpoint
}

/**
 * Where a deployed procedure is reached, as the real service's links write it: the base URL
 * without its scheme, then `/lib/<name>`, then `:dev` for the dev stage
 * (`proc.run/lib/greet:dev`).
 */
export function linkOf(baseUrl: string, name: string, stage: Stage): string {
  const base = trimBaseUrl(baseUrl.replace(/^[a-z][a-z0-9+.-]*:\/\//i, ''))
  return `${base}/${LIB}/${name}${stage === 'dev' ? DEV_SUFFIX : ''}`
}

/**
 * A `release` flag: `true`, or the text `"true"` that the command line's `-arg production=true`
 * sends; `false`, `"false"`, `null` or nothing is the dev stage.
 */
export function readRelease(value: unknown, site: string): boolean {
  if (value === undefined || value === null || value === false || value === 'false') return false
  if (value === true || value === 'true') return true
  throw new InvalidError(
    `invalid argument \`release' for \`${site}' (given value could not be coerced into the defined type)`,
    'not_coercible',
  )
}
