/**
 * `coverage FILE... [--min N] [--out DIR] [--service-name proc]`: the authorization coverage of
 * a client's tests (decision 057), from journals (`GET /_account/exchanges`, the page's export or
 * its HAR), coverage files the kit wrote, or contracts, replayed on an engine in this process
 * with its journal on. Prints a table, writes `report.json` and a self-contained `report.html`
 * under `--out` (default `service-coverage`), and exits 1 when the score is below `--min`.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import {
  coverageReport,
  mergeTallies,
  tallyCoverage,
  type CoverageTally,
} from '../../engine/insight'
import { coverageHtml, coverageTable } from './coverage-render'
import { CaseFileError } from '../../conformance/cases'
import { readJournalFiles } from '../../conformance/journal-files'
import { SERVICE_NAME } from '../../conformance/targets'
import { COVERAGE_USAGE } from './usage'
import { schemaRef } from '../../conformance/schema-ref'
import { appendSummary, coverageSummary, summaryFile } from './summary'

export { replayForCoverage } from '../../conformance/journal-files'

/** The tally of the named files, each read as what it holds. */
export async function coverageOf(
  files: readonly string[],
  serviceName = SERVICE_NAME,
): Promise<CoverageTally> {
  const { entries, tallies } = await readJournalFiles(files, serviceName)
  return mergeTallies(tallyCoverage(entries), ...tallies.map(({ tally }) => tally))
}

export interface CoverageContext {
  out?: (text: string) => void
  err?: (text: string) => void
  env?: NodeJS.ProcessEnv
}

/** The command: its exit code (0 at or above `--min`, 1 below it, 2 for a wrong command line or file). */
export async function coverageCommand(
  args: string[],
  context: CoverageContext = {},
): Promise<number> {
  const out = context.out ?? ((text: string) => console.log(text))
  const err = context.err ?? ((text: string) => console.error(text))
  try {
    const { values, positionals } = parseArgs({
      args,
      options: {
        min: { type: 'string' },
        out: { type: 'string', default: 'service-coverage' },
        'service-name': { type: 'string', default: SERVICE_NAME },
        summary: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: true,
    })
    if (values.help) {
      out(COVERAGE_USAGE)
      return 0
    }
    if (positionals.length === 0) {
      throw new UsageError(
        'name what to read: coverage service-coverage.json | exchanges.json | contracts/*.json [--min 80]',
      )
    }
    const min = values.min === undefined ? undefined : Number(values.min)
    if (min !== undefined && !(min >= 0 && min <= 100)) {
      throw new UsageError(`--min must be a percentage from 0 to 100, not ${values.min}`)
    }
    const report = coverageReport(await coverageOf(positionals, values['service-name']))
    out(coverageTable(report).trimEnd())
    mkdirSync(values.out!, { recursive: true })
    const json = resolve(values.out!, 'report.json')
    const written = { $schema: schemaRef('coverage', json), ...report }
    writeFileSync(json, `${JSON.stringify(written, null, 2)}\n`)
    writeFileSync(join(values.out!, 'report.html'), coverageHtml(report))
    out(`\nwrote ${join(values.out!, 'report.json')} and ${join(values.out!, 'report.html')}`)
    appendSummary(summaryFile(values.summary, context.env), coverageSummary(report, min))
    if (min !== undefined && report.score < min) {
      err(`coverage ${report.score}% is below --min ${min}%`)
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

class UsageError extends Error {}
