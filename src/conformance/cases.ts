import { Ajv, type ValidateFunction } from 'ajv'
import schema from '../../schemas/cases.json' with { type: 'json' }

export type Format = 'tuples' | 'msgpack' | 'json' | 'text' | 'query'

export interface Expect {
  status: number
  result?: unknown
  resultType?: JsonType
  /** Pact's matching rules: the value at a JSON Pointer into the result, by type or pattern. */
  matchers?: Record<string, Matcher>
  message?: string
  messageMatch?: string
  headers?: Record<string, string | null | { match: string }>
}

export type JsonType = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'null'

export type Matcher = { type: JsonType } | { regex: string }

export interface CallStep {
  call: string
  token?: string | null
  authorization?: string
  format?: Format
  input?: unknown
  args?: Record<string, unknown>
  query?: Record<string, string | string[]>
  body?: string
  bodyBase64?: string
  /** `null` sends no content-type header. */
  contentType?: string | null
  /** `null` sends no accept header. */
  accept?: string | null
  method?: string
  expect: Expect
  bind?: { as: string; from: string }
}

/** `auth.create` with the token bound to `from`; the authorization is bound to `mint`. */
export interface MintStep {
  mint: string
  from: string
  abilities: string[]
  insecure?: boolean
  ttl?: number
}

export type Step =
  | { secret: string }
  | { roll: string; as: string; in?: number }
  | { advance: number }
  | MintStep
  | CallStep

export interface Case {
  /** `file › name`, with ` [format]` for a case run once per format. */
  id: string
  file: string
  format: Format
  /** Needs an empty account: skipped where no control plane can reset one. */
  fresh: boolean
  /** The setup's steps, then the case's own: the setup is the first `setup` of them. */
  steps: Step[]
  /** How many of `steps` are the case's setup (its fixtures), run before its own. */
  setup?: number
  /** What a reader should know: a contract lists the exchanges it left out. */
  notes?: string[]
}

/** A file of cases as written: a contract is one too. */
export interface CaseFile {
  /** Where the file's schema is, for an editor (decision 085). */
  $schema?: string
  /** The format's version: 2 once a case has a `setup`; a file without one is version 1. */
  version?: CaseFileVersion
  description: string
  cases: FileCase[]
}

/** The versions of the case file this reader reads. */
export type CaseFileVersion = 1 | 2

/** The newest version: what a file with a case's `setup` in it says. */
export const CASE_FILE_VERSION: CaseFileVersion = 2

/** One case as its file writes it. */
export interface FileCase {
  name: string
  formats?: Format[]
  fresh?: boolean
  /**
   * The fixtures the case needs (what its test's `beforeAll` hooks made: secrets, keys,
   * procedures, the clock), run before its own steps, so that the case verifies alone.
   */
  setup?: Step[]
  steps: Step[]
  notes?: string[]
}

/** A case's steps as they run: its setup's, then its own. */
export const stepsOf = (c: FileCase): Step[] => (c.setup ? [...c.setup, ...c.steps] : c.steps)

/** A case file that does not follow the schema: names the file and the field. */
export class CaseFileError extends Error {
  constructor(file: string, detail: string) {
    super(`${file}: ${detail}`)
    this.name = 'CaseFileError'
  }
}

let compiled: ValidateFunction<CaseFile> | undefined
/** Compiled when first needed: `serve` and commands that read no case file never pay for it. */
const validator = () => (compiled ??= new Ajv({ allErrors: false }).compile<CaseFile>(schema))

/** A case file's text as its cases, checked against the schema (a contract file is one too). */
export function readCaseFile(file: string, text: string): CaseFile {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new CaseFileError(file, `not valid JSON (${(error as Error).message})`)
  }
  const version = (data as { version?: unknown } | null)?.version
  if (typeof version === 'number' && Number.isInteger(version) && version > CASE_FILE_VERSION) {
    throw new CaseFileError(
      file,
      `version ${version} of the case format is newer than this reader, which reads versions 1 to ${CASE_FILE_VERSION}: update service-playground`,
    )
  }
  const validate = validator()
  if (!validate(data)) {
    const [first] = validate.errors ?? []
    const where = first?.instancePath ? first.instancePath : '(the file)'
    throw new CaseFileError(
      file,
      `${where}${caseNamed(data, where)} ${first?.message ?? 'does not match the schema'}`,
    )
  }
  const seen = new Set<string>()
  for (const [at, { name, setup }] of data.cases.entries()) {
    if (seen.has(name)) throw new CaseFileError(file, `two cases are named "${name}"`)
    seen.add(name)
    if (setup && (data.version ?? 1) < 2) {
      throw new CaseFileError(
        file,
        `case "${name}" has a setup, which version 2 of the case format brought: add "version": 2 to the file`,
      )
    }
    if (setup) checkSetup(file, at, name, setup)
  }
  return data
}

/** The roles a step uses: its token, the secret it mints from or rolls. */
function usedBy(step: Step): string[] {
  if ('call' in step) return typeof step.token === 'string' ? [step.token.slice(1)] : []
  if ('mint' in step) return [step.from]
  if ('roll' in step) return [step.roll]
  return []
}

/** The role a step binds, if any. */
function boundBy(step: Step): string | undefined {
  if ('call' in step) return step.bind?.as
  if ('mint' in step) return step.mint
  if ('secret' in step) return step.secret
  if ('roll' in step) return step.as
  return undefined
}

/**
 * A setup runs before its case's steps, so it can use only what it binds itself: a role its
 * case binds later would be unknown when the setup runs.
 */
function checkSetup(file: string, at: number, name: string, setup: readonly Step[]) {
  const bound = new Set(['secret'])
  for (const [index, step] of setup.entries()) {
    for (const role of usedBy(step)) {
      const isRole = 'call' in step ? step.token?.startsWith('$') : true
      if (isRole && !bound.has(role)) {
        const label = 'call' in step ? ` (${step.call})` : ''
        throw new CaseFileError(
          file,
          `/cases/${at}/setup/${index}${label} (case "${name}", in its setup) uses $${role}, which no earlier step of its setup binds: a setup runs before the case's steps`,
        )
      }
    }
    const role = boundBy(step)
    if (role) bound.add(role)
  }
}

/** ` (case "name", its setup)`: which case a path into the file is in, by name. */
function caseNamed(data: unknown, path: string): string {
  const match = /^\/cases\/(\d+)(\/(setup|steps))?/.exec(path)
  if (!match) return ''
  const name = (data as { cases: Array<{ name?: unknown }> }).cases[Number(match[1])]?.name
  const part =
    match[3] === 'setup' ? ', in its setup' : match[3] === 'steps' ? ', in its steps' : ''
  return typeof name === 'string' ? ` (case "${name}"${part})` : ''
}

/**
 * Reads one case file, checked against the schema, and expands cases run once per format.
 * Browser-safe: the playground opens contracts with it.
 */
export function parseCaseFile(file: string, text: string): Case[] {
  return readCaseFile(file, text).cases.flatMap((c) =>
    (c.formats ?? ['tuples']).map((format) => ({
      id: c.formats ? `${file} › ${c.name} [${format}]` : `${file} › ${c.name}`,
      file,
      format,
      fresh: c.fresh ?? false,
      steps: stepsOf(c),
      ...(c.setup ? { setup: c.setup.length } : {}),
      ...(c.notes ? { notes: c.notes } : {}),
    })),
  )
}
