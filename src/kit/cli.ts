/**
 * `service-playground <command>`: the kit's command line.
 *
 *   serve        the whole service over HTTP (see `service-playground serve --help`)
 *   conformance  the conformance suite against a target (handle, msw, serve or a base URL)
 */
import { fileURLToPath } from 'node:url'
import { setServeCommand } from '../../conformance/targets'

const USAGE = `usage: service-playground <command> [flags]

commands:
  serve         the whole service over HTTP on 127.0.0.1
                  --port 8787 --service-name NAME --secret KEY --control-token T
                  --data FILE --journal N --max-accounts N --strict --rate-limit ...
  conformance   play the conformance cases against a target
                  --base-url URL --secret KEY [--service-name NAME] [--control-token T]
                  --target handle|msw|serve|base-url  [--junit FILE] [--filter TEXT]
  help          this text
`

const [command, ...rest] = process.argv.slice(2)
// Each command reads its own flags from the rest of the line.
process.argv.splice(2, process.argv.length - 2, ...rest)
// `conformance --target serve` starts this same command's `serve`.
setServeCommand([process.execPath, fileURLToPath(import.meta.url), 'serve'])

switch (command) {
  case 'serve':
    await import('../node/serve-cli')
    break
  case 'conformance':
    await import('../../conformance/cli')
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
