/**
 * `tokens FILE... [--max-excess N] [--out DIR] [--service-name proc]`: least privilege from a
 * client's tests (decision 090). Reads journals and contracts as `coverage` does, asks an engine
 * in this process (a fresh account: nothing of the journal's is in it) for the narrowest token
 * for each token's use, proven there, prints them, writes `tokens.json` and a self-contained
 * `tokens.html` under `--out` (default `service-tokens`), and exits 1 when a token reaches more
 * than `--max-excess` endpoints beyond its use.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createEngine } from '../../engine'
import { nodeHmac } from '../../server/node-hmac'
import { tokensHtml, tokensTable } from './tokens-render'
import { createMemoryStore } from '../../storage/memory-store'
import { CaseFileError } from '../../conformance/cases'
import { readJournalFiles } from '../../conformance/journal-files'
import { SERVICE_NAME } from '../../conformance/targets'
import { schemaRef } from '../../conformance/schema-ref'
import { TOKENS_USAGE } from './usage'
import { appendSummary, summaryFile, tokensSummary } from './summary'

export interface TokensContext {
  out?: (text: string) => void
  err?: (text: string) => void
  env?: NodeJS.ProcessEnv
}

class UsageError extends Error {}

/** The command: its exit code (0 within `--max-excess`, 1 beyond it, 2 a wrong command line or file). */
export async function tokensCommand(args: string[], context: TokensContext = {}): Promise<number> {
  const out = context.out ?? ((text: string) => console.log(text))
  const err = context.err ?? ((text: string) => console.error(text))
  try {
    const { values, positionals } = parseArgs({
      args,
      options: {
        'max-excess': { type: 'string' },
        out: { type: 'string', default: 'service-tokens' },
        'service-name': { type: 'string', default: SERVICE_NAME },
        summary: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: true,
    })
    if (values.help) {
      out(TOKENS_USAGE)
      return 0
    }
    if (positionals.length === 0) {
      throw new UsageError(
        'name what to read: tokens exchanges.json | contracts/*.json [--max-excess 0]',
      )
    }
    const given = values['max-excess']
    const maxExcess = given === undefined ? undefined : Number(given)
    if (maxExcess !== undefined && !(Number.isInteger(maxExcess) && maxExcess >= 0)) {
      throw new UsageError(`--max-excess must be a whole number of endpoints, not ${given}`)
    }
    const serviceName = values['service-name']!
    const { entries, tallies } = await readJournalFiles(positionals, serviceName)
    if (tallies.length > 0) {
      throw new CaseFileError(
        tallies[0]!.file,
        'is a coverage tally: it counts calls but keeps none to suggest from; give the journal (GET /_account/exchanges), the playground export or HAR, or contracts',
      )
    }
    const engine = createEngine({ store: createMemoryStore(), serviceName, hmac: nodeHmac })
    await engine.account.createSecret()
    const report = await engine.insight.leastPrivilege(entries)
    const text = tokensTable(report).trimEnd()
    out(text)
    mkdirSync(values.out!, { recursive: true })
    // `$schema` first, so an editor that opens the file checks it (decision 085).
    const json = join(values.out!, 'tokens.json')
    const written = { $schema: schemaRef('tokens', resolve(json)), ...report }
    writeFileSync(json, `${JSON.stringify(written, null, 2)}\n`)
    writeFileSync(join(values.out!, 'tokens.html'), tokensHtml(report))
    out(`\nwrote ${join(values.out!, 'tokens.json')} and ${join(values.out!, 'tokens.html')}`)
    appendSummary(
      summaryFile(values.summary, context.env),
      tokensSummary(report, text, maxExcess),
      entries.flatMap(presentedTokens),
    )
    if (maxExcess !== undefined && report.maxExcess > maxExcess) {
      const over = report.tokens.filter((t) => (t.excess?.endpoints ?? 0) > maxExcess)
      err(
        `${over.map((t) => `${t.label} reaches ${t.excess!.endpoints} endpoint${t.excess!.endpoints === 1 ? '' : 's'} beyond its use`).join('; ')}: more than --max-excess ${maxExcess}`,
      )
      return 1
    }
    return 0
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof CaseFileError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      err(`error: ${(error as Error).message}`)
      return 2
    }
    throw error
  }
}

/** The tokens and secrets a journal entry presented (hostile entries hold anything). */
function presentedTokens(entry: { request?: { headers?: unknown } }): string[] {
  const headers = entry.request?.headers
  if (!Array.isArray(headers)) return []
  return headers.flatMap((header: unknown) =>
    Array.isArray(header) &&
    typeof header[0] === 'string' &&
    typeof header[1] === 'string' &&
    header[0].toLowerCase() === 'authorization'
      ? [header[1].replace(/^Bearer\s+/i, '')]
      : [],
  )
}
