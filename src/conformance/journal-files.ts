/**
 * The one reader of journal files, for `coverage` and `tokens`: the journal as
 * `GET /_account/exchanges` answers it, the page's export or HAR, a coverage file the kit wrote
 * (a tally), or contracts, replayed on an engine in this process with its journal on. A file
 * too large to read whole, unreadable or holding none of these is a `CaseFileError` naming it.
 */
import { readFileSync, statSync } from 'node:fs'
import { createEngine, type ExchangeRecord } from '../engine'
import { readCoverageInput, type CoverageEntry, type CoverageTally } from '../engine/insight'
import { MAX_JOURNAL } from '../engine/control/control-plane'
import { createMemoryStore } from '../storage/memory-store'
import { CaseFileError, parseCaseFile, type Case } from './cases'
import { controlOver, fromResponse, toRequest } from './fetch-target'
import { runCases, type Target } from './run'
import { SERVICE_NAME } from './targets'

/** The largest file read: JSON is read whole, and a larger one would not fit in memory as objects. */
export const MAX_JOURNAL_FILE_BYTES = 128 * 1024 * 1024

const BASE_URL = 'https://coverage.proc.test'

/** The journal of contracts replayed on an engine in this process, every exchange of every case. */
export async function replayForCoverage(
  contracts: readonly Case[],
  serviceName = SERVICE_NAME,
): Promise<ExchangeRecord[]> {
  const engine = createEngine({
    store: createMemoryStore(),
    baseUrl: BASE_URL,
    serviceName,
    exchangeLog: MAX_JOURNAL,
  })
  const kept: ExchangeRecord[] = []
  let seen = 0
  const target: Target = {
    name: 'handle',
    baseUrl: BASE_URL,
    serviceName,
    control: controlOver(engine.handle, BASE_URL),
    async send(request) {
      const response = await fromResponse(await engine.handle(toRequest(request)))
      // A reset between cases empties the journal: each exchange is taken as it is made.
      for (const record of (await engine.operator.journal.list()).reverse()) {
        if (record.id > seen) {
          kept.push(record)
          seen = record.id
        }
      }
      return response
    },
  }
  await runCases(target, contracts, { allSteps: true })
  return kept
}

/** What the files hold: journal entries (contracts replayed into them), and tallies. */
export interface JournalFiles {
  entries: CoverageEntry[]
  tallies: Array<{ file: string; tally: CoverageTally }>
}

const mebibytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`

/** Reads each file as what it holds. */
export async function readJournalFiles(
  files: readonly string[],
  serviceName = SERVICE_NAME,
): Promise<JournalFiles> {
  const read: JournalFiles = { entries: [], tallies: [] }
  for (const file of files) {
    let size: number
    try {
      size = statSync(file).size
    } catch {
      throw new CaseFileError(file, 'no such file')
    }
    if (size > MAX_JOURNAL_FILE_BYTES) {
      throw new CaseFileError(
        file,
        `${mebibytes(size)} is more than the ${mebibytes(MAX_JOURNAL_FILE_BYTES)} a journal file may take: save it in parts (GET /_account/exchanges?after=ID) and name them all`,
      )
    }
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      throw new CaseFileError(file, `cannot be read (${(error as Error).message})`)
    }
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      throw new CaseFileError(file, `not valid JSON (${(error as Error).message})`)
    }
    const input = readCoverageInput(value)
    if (input.kind === 'tally') read.tallies.push({ file, tally: input.tally })
    else if (input.kind === 'entries') {
      for (const entry of input.entries) read.entries.push(entry)
    } else if (input.kind === 'contracts') {
      const records = await replayForCoverage(parseCaseFile(file, text), serviceName)
      for (const record of records) read.entries.push(record)
    } else {
      throw new CaseFileError(
        file,
        "holds no journal, coverage or contracts: give GET /_account/exchanges as saved, the playground's export or HAR, a coverage file the kit wrote, or contracts",
      )
    }
  }
  return read
}
