/**
 * `npm run conformance -- [--target handle|msw|serve|base-url] [--base-url URL] [--secret S]
 * [--control-token T] [--service-name proc] [--junit FILE] [--filter TEXT]` plays every case
 * against one target; `npm run conformance -- verify contracts/*.json [the same target flags]`
 * replays contracts. Exit codes are in commands.ts.
 */
import { fileURLToPath } from 'node:url'
import { setCasesDir } from '../../conformance/load-cases'
import { main } from './commands'

setCasesDir(fileURLToPath(new URL('../../../conformance/cases/', import.meta.url)))
const code = await main(process.argv.slice(2), {
  root: fileURLToPath(new URL('../../..', import.meta.url)),
})
process.exit(code)
