/**
 * `service-playground <command>`: the kit's command line.
 *
 *   serve        the whole service over HTTP
 *   conformance  the conformance suite against a target (handle, msw, serve or a base URL)
 *   verify       contracts recorded from tests, replayed against a target
 *   coverage     the authorization coverage of a client's tests, with a --min gate
 *   tokens       the narrowest token for each token's use, with a --max-excess gate
 *   drift        contracts played against the real service: what changed since they were recorded
 *   link         a link to one step of a contract, for the playground to replay offline
 *   import-har   a browser's HAR as a contract verify replays
 */
import { fileURLToPath } from 'node:url'
import { setCasesDir, setServeCommand } from '../conformance'
import { conformanceCommand, verifyCommand } from './conformance/commands'
import { coverageCommand } from './conformance/coverage-command'
import { importHarCommand } from './conformance/import-har-command'
import { linkCommand } from './conformance/link-command'
import { replayCommand } from './conformance/replay-command'
import { tokensCommand } from './conformance/tokens-command'
import { driftCommand } from './shadow/drift-command'

const USAGE = `usage: service-playground <command> [flags]

commands:
  serve         the whole service over HTTP on 127.0.0.1
                  --port 8787 --service-name NAME --secret KEY --control-token T
                  --data FILE --journal N --max-accounts N --strict --rate-limit ...
                or, in front of the real service, comparing the engine's answers with its:
                  --upstream URL --upstream-secret-file FILE [--shadow-report DIR]
  conformance   play the conformance cases against a target
                  --base-url URL --secret KEY [--service-name NAME] [--control-token T]
                  --target handle|msw|serve|base-url  [--junit FILE] [--filter TEXT]
  verify        replay contracts (JSON files recorded by the kit's helpers) against a target
                  contracts/*.json [the same target flags as conformance]
                conformance and verify against the real service, the engine compared beside it:
                  --shadow URL --upstream-secret-file FILE [--shadow-report DIR]
  coverage      the authorization coverage of your tests: a table, report.json and report.html
                  service-coverage.json | exchanges.json | contracts/*.json
                  [--min PERCENT] [--out DIR] [--service-name NAME]
  replay        send a recording (GET /_account/recording) again, byte for byte compared
                  RECORDING.json --target URL|handle|msw|serve [--control-token T]
  tokens        least privilege: the narrowest token for each token your tests used
                  exchanges.json | contracts/*.json
                  [--max-excess N] [--out DIR] [--service-name NAME]
  drift         what of the real service changed since your contracts were recorded
                  contracts/*.json --upstream URL --upstream-secret-file FILE
                  [--rate 20] [--summary FILE] [--report DIR]
  link          a link to one step of a contract, opened offline in the playground
                  CONTRACT.json [--case N] [--step M] [--page URL]
  import-har    a browser's HAR (Chromium, Firefox, Playwright's recordHar) as a contract
                  FILE.har [--base-url URL] [--out FILE] [--name NAME]
  help          this text

\`service-playground <command> --help\` shows every flag of a command. A value that starts with
\`-\` (a token may) is given as --flag=value: --control-token=-abc.
`

const [command, ...rest] = process.argv.slice(2)
const here = fileURLToPath(new URL('.', import.meta.url))
// The cases ship beside this file; `--target serve` starts this same command's `serve`.
setCasesDir(`${here}cases`)
setServeCommand([process.execPath, fileURLToPath(import.meta.url), 'serve'])

switch (command) {
  case 'serve':
    await (await import('./serve/serve-cli')).main(rest)
    break
  case 'conformance':
    process.exit(await conformanceCommand(rest, { root: process.cwd() }))
    break
  case 'verify':
    process.exit(await verifyCommand(rest, { root: process.cwd() }))
    break
  case 'coverage':
    process.exit(await coverageCommand(rest))
    break
  case 'replay':
    process.exit(await replayCommand(rest, { root: process.cwd() }))
    break
  case 'tokens':
    process.exit(await tokensCommand(rest))
    break
  case 'drift':
    process.exit(await driftCommand(rest))
    break
  case 'link':
    process.exit(await linkCommand(rest))
    break
  case 'import-har':
    process.exit(await importHarCommand(rest))
    break
  case undefined:
  case 'help':
  case '--help':
  case '-h':
    console.log(USAGE)
    break
  default:
    console.error(`error: unknown command ${JSON.stringify(command)}\n\n${USAGE}`)
    process.exit(2)
}
