import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv } from 'ajv'
import schema from './schema.json' with { type: 'json' }

export type Format = 'tuples' | 'msgpack' | 'json' | 'text' | 'query'

export interface Expect {
  status: number
  result?: unknown
  resultType?: 'string' | 'number' | 'boolean' | 'array' | 'object' | 'null'
  message?: string
  messageMatch?: string
  headers?: Record<string, string | null | { match: string }>
}

export interface CallStep {
  call: string
  token?: string | null
  authorization?: string
  format?: Format
  input?: unknown
  args?: Record<string, unknown>
  body?: string
  contentType?: string
  accept?: string
  method?: string
  expect: Expect
  bind?: { as: string; from: string }
}

export type Step =
  { secret: string } | { roll: string; as: string; in?: number } | { advance: number } | CallStep

export interface Case {
  /** `file › name`, with ` [format]` for a case run once per format. */
  id: string
  file: string
  format: Format
  /** Needs an empty account: skipped where no control plane can reset one. */
  fresh: boolean
  steps: Step[]
}

interface CaseFile {
  description: string
  cases: Array<{ name: string; formats?: Format[]; fresh?: boolean; steps: Step[] }>
}

export const CASES_DIR = new URL('./cases/', import.meta.url).pathname

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
  return data.cases.flatMap(({ name, formats, fresh = false, steps }) => {
    if (seen.has(name)) throw new CaseFileError(file, `two cases are named "${name}"`)
    seen.add(name)
    return (formats ?? ['tuples']).map((format) => ({
      id: formats ? `${file} › ${name} [${format}]` : `${file} › ${name}`,
      file,
      format,
      fresh,
      steps,
    }))
  })
}

/** Every case in `dir`, file by file in name order. */
export function loadCases(dir = CASES_DIR): Case[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .flatMap((name) => parseCaseFile(name, readFileSync(join(dir, name), 'utf8')))
}
