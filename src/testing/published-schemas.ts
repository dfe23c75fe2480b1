// The kit's published schemas (schemas/*.json), compiled by Ajv, for tests that check a file
// the tool wrote: `undefined` when it follows its schema, else the first error with its path.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv, type ValidateFunction } from 'ajv'
import { schemasFolder, type SchemaName } from '../conformance/schema-ref'

const ajv = new Ajv({ allErrors: false })
const compiled = new Map<SchemaName, ValidateFunction>()

/** `undefined` when `value` follows schema `name`; else `<path> <message>` of its first error. */
export function schemaError(name: SchemaName, value: unknown): string | undefined {
  let validate = compiled.get(name)
  if (!validate) {
    const schema = JSON.parse(readFileSync(join(schemasFolder(), `${name}.json`), 'utf8')) as object
    validate = ajv.compile(schema)
    compiled.set(name, validate)
  }
  if (validate(value)) return undefined
  const [first] = validate.errors!
  return `${first!.instancePath || '(the file)'} ${first!.message}`
}
