// The kit's coverage option (decision 057): every test's journal tallied, the tallies of every
// file and worker of one run added up into one file, written as the run goes, so that the file
// holds the whole run once the last test has ended.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute, resolve } from 'node:path'
import { isMainThread } from 'node:worker_threads'
import {
  coverageReport,
  mergeTallies,
  readCoverageInput,
  tallyChecks,
  tallyCoverage,
  type CoverageEntry,
  type CoverageTally,
  type PolicyCheck,
} from '../engine/insight'
import { schemaRef } from '../conformance/schema-ref'
import { contractPath, withLock } from './contract'

/**
 * The run a test process belongs to: the test runner's process (a Vitest fork's or a Playwright
 * worker's parent; a Vitest thread's own), with the moment it started where the system says, so
 * that a later run with the same process id starts a new file.
 */
export function runId(): string {
  const pid = isMainThread ? process.ppid : process.pid
  let started = ''
  try {
    started = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[19] ?? ''
  } catch {
    // Not Linux: the process id alone.
  }
  return `${pid}${started ? `:${started}` : ''}`
}

/** The coverage file as written: the report of the run so far, and which run it is. */
type CoverageFile = CoverageTally & { run?: string }

/**
 * Adds `tally` to the coverage file at `path` (relative to `root`, or to
 * `SERVICE_PLAYGROUND_CONTRACT_DIR` as contract paths are), under a lock.
 */
export async function addCoverage(
  path: string,
  root: string,
  tally: CoverageTally,
): Promise<string> {
  const file = contractPath(path, root)
  mkdirSync(dirname(file), { recursive: true })
  const run = runId()
  await withLock(file, () => {
    let before: CoverageTally | undefined
    if (existsSync(file)) {
      try {
        const read = JSON.parse(readFileSync(file, 'utf8')) as CoverageFile
        const input = readCoverageInput(read)
        // A file of an earlier run is started afresh.
        if (input.kind === 'tally' && read.run === run) before = input.tally
      } catch {
        before = undefined
      }
    }
    const merged = before ? mergeTallies(before, tally) : tally
    const temporary = `${file}.${process.pid}.tmp`
    const $schema = schemaRef('coverage', isAbsolute(path) ? path : resolve(root, path))
    const report = { $schema, ...coverageReport(merged), run }
    writeFileSync(temporary, `${JSON.stringify(report, null, 2)}\n`)
    renameSync(temporary, file)
  })
  return file
}

/** Tallies tests as they end, to add to the file once (or after each test). */
export function coverageCollector(path: string | undefined, root: () => string) {
  let pending: CoverageTally | undefined
  return {
    /** Tallies one test's journal. */
    take(entries: Iterable<CoverageEntry>): void {
      if (!path) return
      const tally = tallyCoverage(entries)
      pending = pending ? mergeTallies(pending, tally) : tally
    },
    /** Counts what a passing policy matcher showed of an ability. */
    checked(check: PolicyCheck): void {
      if (!path) return
      const tally = tallyChecks([check])
      pending = pending ? mergeTallies(pending, tally) : tally
    },
    /** Adds what was tallied to the file. */
    async flush(): Promise<void> {
      if (!path || !pending) return
      const tally = pending
      pending = undefined
      await addCoverage(path, root(), tally)
    },
  }
}
