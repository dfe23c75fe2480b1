import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { Ajv } from 'ajv'
import schema from './schema.json' with { type: 'json' }

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
  description: string
  cases: Array<{
    name: string
    formats?: Format[]
    fresh?: boolean
    steps: Step[]
    notes?: string[]
  }>
}

let casesDir: string | undefined

/**
 * Where the conformance cases are read from: `conformance/cases` under the working directory
 * unless `setCasesDir` said otherwise (the installed kit keeps them beside its own code).
 */
export function getCasesDir(): string {
  return casesDir ?? resolve('conformance', 'cases')
}

export function setCasesDir(dir: string): void {
  casesDir = dir
}

/** A case file that does not follow the schema: names the file and the field. */
export class CaseFileError extends Error {
  constructor(file: string, detail: string) {
    super(`${file}: ${detail}`)
    this.name = 'CaseFileError'
  }
}

const validate = new Ajv({ allErrors: false }).compile<CaseFile>(schema)

/** Reads one case file, checked against the schema, and expands cases run once per format. */
export function parseCaseFile(file: string, text: string): Case[] {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new CaseFileError(file, `not valid JSON (${(error as Error).message})`)
  }
  if (!validate(data)) {
    const [first] = validate.errors ?? []
    const where = first?.instancePath ? first.instancePath : '(the file)'
    throw new CaseFileError(file, `${where} ${first?.message ?? 'does not match the schema'}`)
  }
  const seen = new Set<string>()
  return data.cases.flatMap(({ name, formats, fresh = false, steps, notes }) => {
    if (seen.has(name)) throw new CaseFileError(file, `two cases are named "${name}"`)
    seen.add(name)
    return (formats ?? ['tuples']).map((format) => ({
      id: formats ? `${file} › ${name} [${format}]` : `${file} › ${name}`,
      file,
      format,
      fresh,
      steps,
      ...(notes ? { notes } : {}),
    }))
  })
}

/** Every case in `dir`, file by file in name order. */
export function loadCases(dir = getCasesDir()): Case[] {
  if (!existsSync(dir)) {
    throw new CaseFileError(dir, 'no such directory of conformance cases (see setCasesDir)')
  }
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .flatMap((name) => parseCaseFile(name, readFileSync(join(dir, name), 'utf8')))
}
