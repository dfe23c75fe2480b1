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
  steps: Step[]
  /** What a reader should know: a contract lists the exchanges it left out. */
  notes?: string[]
}

/** A file of cases as written: a contract is one too. */
export interface CaseFile {
  /** Where the file's schema is, for an editor (decision 085). */
  $schema?: string
  description: string
  cases: Array<{
    name: string
    formats?: Format[]
    fresh?: boolean
    steps: Step[]
    notes?: string[]
  }>
}

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
  const validate = validator()
  if (!validate(data)) {
    const [first] = validate.errors ?? []
    const where = first?.instancePath ? first.instancePath : '(the file)'
    throw new CaseFileError(file, `${where} ${first?.message ?? 'does not match the schema'}`)
  }
  const seen = new Set<string>()
  for (const { name } of data.cases) {
    if (seen.has(name)) throw new CaseFileError(file, `two cases are named "${name}"`)
    seen.add(name)
  }
  return data
}

/**
 * Reads one case file, checked against the schema, and expands cases run once per format.
 * Browser-safe: the playground opens contracts with it.
 */
export function parseCaseFile(file: string, text: string): Case[] {
  return readCaseFile(file, text).cases.flatMap(({ name, formats, fresh = false, steps, notes }) =>
    (formats ?? ['tuples']).map((format) => ({
      id: formats ? `${file} › ${name} [${format}]` : `${file} › ${name}`,
      file,
      format,
      fresh,
      steps,
      ...(notes ? { notes } : {}),
    })),
  )
}
