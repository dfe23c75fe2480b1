import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Ajv } from 'ajv'
import standalone from 'ajv/dist/standalone/index.js'
import { describe, expect, it } from 'vitest'
import casesSchema from '../../../schemas/cases.json' with { type: 'json' }
import linkSchema from '../../../schemas/link.json' with { type: 'json' }
import validate from './link-validate.js'

const file = fileURLToPath(new URL('./link-validate.js', import.meta.url))

/** Ajv's own string length (counting a surrogate pair once), which its code calls by name. */
const UCS2LENGTH = `// Ajv's runtime ucs2length (ajv/dist/runtime/ucs2length.js, MIT), inlined: this module
// imports nothing, so that the page, Node and the kit load it alike.
function ucs2length(str) {
  const len = str.length
  let length = 0
  let pos = 0
  let value
  while (pos < len) {
    length++
    value = str.charCodeAt(pos++)
    if (value >= 0xd800 && value <= 0xdbff && pos < len) {
      value = str.charCodeAt(pos)
      if ((value & 0xfc00) === 0xdc00) pos++
    }
  }
  return length
}
`

/**
 * The link schema's validator as Ajv's standalone code: what `readStepLink` checks a link
 * with, compiled here rather than in the page that opens the link (decision 106).
 */
function validatorCode(): string {
  const ajv = new Ajv({ allErrors: false, code: { source: true, esm: true } }).addSchema(
    casesSchema,
  )
  const code = standalone(ajv, ajv.compile(linkSchema))
  const runtime = 'require("ajv/dist/runtime/ucs2length").default'
  return `// Made from schemas/link.json and schemas/cases.json by Ajv's standalone code: do not edit.
// UPDATE_LINK_VALIDATOR=1 npx vitest run src/conformance/link/link-validate.test.ts makes it again.
${UCS2LENGTH}${code.replaceAll(runtime, 'ucs2length').replace('"use strict";', '')}
`
}

describe("the link schema's compiled validator", () => {
  it('is the one the schemas make today', () => {
    const fresh = validatorCode()
    if (process.env.UPDATE_LINK_VALIDATOR) writeFileSync(file, fresh)
    expect(fresh).not.toContain('require(')
    expect(readFileSync(file, 'utf8'), 'stale: UPDATE_LINK_VALIDATOR=1 renews it').toBe(fresh)
  })

  it('checks what the schema says', () => {
    const ok = {
      v: 1,
      engine: '0.1.0',
      case: { name: 'a', steps: [{ call: 'core.ping', expect: { status: 200 } }] },
    }
    expect(validate(ok), JSON.stringify(validate.errors)).toBe(true)
    expect(validate({ ...ok, v: 2 })).toBe(false)
    expect(validate.errors?.[0]?.instancePath).toBe('/v')
    expect(
      validate({ ...ok, case: { name: 'a', steps: [{ call: 7, expect: { status: 200 } }] } }),
    ).toBe(false)
  })
})
