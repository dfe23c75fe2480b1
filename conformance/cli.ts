/**
 * `npm run conformance -- --target handle|msw|serve|base-url [--base-url URL --secret S]
 * [--service-name proc] [--junit FILE] [--filter TEXT]`: plays every case against one target,
 * prints a table, writes JUnit XML, exits 1 when any case fails (2 on bad flags).
 */
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { loadCases } from './cases'
import { junit, table } from './report'
import { runCases, type Target } from './run'
import { baseUrlTarget, handleTarget, mswTarget, serveTarget } from './targets'

const { values } = parseArgs({
  options: {
    target: { type: 'string', default: 'handle' },
    'base-url': { type: 'string' },
    secret: { type: 'string' },
    'service-name': { type: 'string', default: 'proc' },
    junit: { type: 'string', default: 'conformance-results.xml' },
    filter: { type: 'string' },
  },
})

function usage(message: string): never {
  console.error(`error: ${message}`)
  process.exit(2)
}

const root = fileURLToPath(new URL('..', import.meta.url))
let target: Target & { close?: () => unknown }
switch (values.target) {
  case 'handle':
    target = handleTarget()
    break
  case 'msw':
    target = mswTarget()
    break
  case 'serve':
    target = await serveTarget(root)
    break
  case 'base-url':
    if (!values['base-url'] || !values.secret)
      usage('--target base-url needs --base-url URL and --secret S')
    target = baseUrlTarget(values['base-url'], values.secret, values['service-name'])
    break
  default:
    usage(
      `--target must be handle, msw, serve or base-url (chromium runs in npm test), not ${values.target}`,
    )
}

const cases = loadCases().filter((c) => !values.filter || c.id.includes(values.filter))
const results = await runCases(target, cases)
await target.close?.()
console.log(table(target.name, results))
writeFileSync(values.junit, junit(target.name, results))
console.log(`JUnit XML: ${values.junit}`)
process.exit(results.some((r) => r.status === 'failed') ? 1 : 0)
