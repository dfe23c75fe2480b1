/**
 * `import-har FILE.har [--base-url URL] [--out FILE] [--name NAME] [--service-name NAME]`: a
 * browser's HAR as a contract `verify` replays (decision 095). Exit codes: 0 written; 1 the
 * HAR holds no exchange with the service that can be replayed; 2 the command line or the HAR
 * is wrong. Nothing is written unless the whole contract is.
 */
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { formatContract } from '../../conformance/contract/format'
import { importHar, type HarCounts } from '../../conformance/contract/har'
import { HarError, MAX_HAR_BYTES, readHar } from '../../conformance/contract/har-file'
import { RecordError } from '../../conformance/contract/record-context'
import { schemaRef } from '../../conformance/schema-ref'

export const IMPORT_HAR_USAGE = `usage: service-playground import-har FILE.har [flags]

A browser's HAR (Chromium's, Firefox's or Playwright's recordHar: HAR 1.2) as a contract that
verify replays: its exchanges with the service become steps, tokens become roles (never
copied), other hosts are left out and counted.

flags:
  --base-url URL       the service's base URL in the HAR (default: the origin of the first
                       POST that sends a bearer token, with /a/<id> for a serve account)
  --out FILE           where the contract goes (default: FILE.har's name, .contract.json)
  --name NAME          the contract's case name (default: the HAR's file name)
  --service-name NAME  the service's name in media types (default: from the requests, or
                       service)
  -h, --help           this text

Exit codes: 0 written; 1 nothing in the HAR can be replayed; 2 a wrong flag or HAR.
`

export interface ImportHarContext {
  out?: (text: string) => void
  err?: (text: string) => void
  /** The largest HAR read, in bytes (`MAX_HAR_BYTES`). */
  maxBytes?: number
}

const count = (n: number, noun: string, nouns = `${noun}s`) => `${n} ${n === 1 ? noun : nouns}`

/** What was imported and what was left out, in a line or two. */
function summary(counts: HarCounts, steps: number): string {
  const hosts = Object.entries(counts.otherHosts)
  const ignored = hosts.reduce((total, [, n]) => total + n, 0)
  const parts = [
    `${count(counts.exchanges, 'exchange')} with the service, ${count(steps, 'step')}`,
    `${count(ignored, 'entry', 'entries')} to other hosts ignored${hosts.length ? ` (${hosts.map(([h, n]) => `${h}: ${n}`).join(', ')})` : ''}`,
  ]
  if (counts.controlPlane)
    parts.push(`${count(counts.controlPlane, 'control-plane request')} ignored`)
  if (counts.preflights) parts.push(`${count(counts.preflights, 'preflight')} ignored`)
  if (counts.leftOut) parts.push(`${counts.leftOut} left out (see the contract's notes)`)
  return parts.join('; ')
}

/** Runs `import-har`; the exit code. */
export async function importHarCommand(
  args: string[],
  context: ImportHarContext = {},
): Promise<number> {
  const out = context.out ?? ((text: string) => console.log(text))
  const err = context.err ?? ((text: string) => console.error(text))
  let values
  let positionals
  try {
    ;({ values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        'base-url': { type: 'string' },
        out: { type: 'string' },
        name: { type: 'string' },
        'service-name': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }))
  } catch (error) {
    err(`error: ${(error as Error).message}\n\n${IMPORT_HAR_USAGE}`)
    return 2
  }
  if (values.help) {
    out(IMPORT_HAR_USAGE)
    return 0
  }
  if (positionals.length !== 1) {
    err(`error: name one HAR file: import-har FILE.har [--out FILE]\n\n${IMPORT_HAR_USAGE}`)
    return 2
  }
  const file = positionals[0]!
  const baseUrl = values['base-url']
  if (baseUrl !== undefined) {
    let url: URL | undefined
    try {
      url = new URL(baseUrl)
    } catch {
      url = undefined
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash) {
      err(
        `error: --base-url must be an http or https URL, such as https://proc.run, not ${JSON.stringify(baseUrl)}`,
      )
      return 2
    }
  }
  const target = resolve(values.out ?? `${basename(file).replace(/\.har$/i, '')}.contract.json`)
  try {
    let size: number
    try {
      size = statSync(file).size
    } catch (error) {
      throw new HarError(
        `${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      )
    }
    const max = context.maxBytes ?? MAX_HAR_BYTES
    if (size > max) {
      throw new HarError(
        `${file} is ${(size / 2 ** 20).toFixed(1)} MiB; import-har reads at most ${max / 2 ** 20} MiB: save a HAR of the session alone (one page, or filtered to the service's host)`,
      )
    }
    const har = readHar(file, readFileSync(file, 'utf8'))
    const imported = importHar(file, har, {
      name: values.name ?? basename(file),
      ...(baseUrl === undefined ? {} : { baseUrl }),
      ...(values['service-name'] === undefined ? {} : { serviceName: values['service-name'] }),
    })
    const steps = imported.contract.cases[0]!.steps.length
    const text = formatContract({ $schema: schemaRef('cases', target), ...imported.contract })
    // Whole or not at all: a temporary file beside it, renamed.
    const temp = `${target}.${process.pid}.tmp`
    try {
      writeFileSync(temp, text)
      renameSync(temp, target)
    } catch (error) {
      rmSync(temp, { force: true })
      throw error
    }
    out(`base URL: ${imported.baseUrl} (service name ${imported.serviceName})`)
    out(summary(imported.counts, steps))
    out(`contract: ${target} (verify it: service-playground verify ${target} --target …)`)
    return 0
  } catch (error) {
    if (error instanceof HarError) {
      err(`error: ${error.message}; nothing written`)
      return 2
    }
    if (error instanceof RecordError) {
      err(`error: ${file}: ${error.message}; nothing written`)
      return 1
    }
    throw error
  }
}
