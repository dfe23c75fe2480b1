import { saveContract, type ContractSource } from './contract'
import { coverageCollector } from './coverage-collect'
import type { TestScope } from './in-process-handle'
import { summarizeFailedTest } from './test-summary'

/** What the helpers record of each test, when asked: their `contract` and `coverage` options. */
export interface RecordOptions {
  /** Every passing test of the file, each its own case, into this contract file. */
  contract?: string
  /** The authorization coverage of every test, added up across the run, into this file. */
  coverage?: string
}

/**
 * What a test leaves behind, recorded at its end before its frame is undone (its journal is
 * still there to read): its coverage tallied; when it passed, its contract saved; when it
 * failed, its calls and refusals in the job's summary, if the job has one (`GITHUB_STEP_SUMMARY`). The
 * tallies go to the coverage file at `flush`, once the file's tests are done. Concurrent tests
 * sharing one frame are tallied together, once (`tally`), not each.
 */
export function testRecords(source: () => Promise<ContractSource>, options: RecordOptions) {
  const { contract, coverage } = options
  let root = process.cwd()
  const collector = coverageCollector(coverage, () => root)
  const tally = async (after: number) => {
    if (coverage) collector.take((await (await source()).journal(after || undefined)).exchanges)
  }
  // The journal's last id seen by `hooksBefore`; the calls after it, one at a time.
  let seen = 0
  let hooks = Promise.resolve()
  return {
    /**
     * Tallies the calls the hooks made since the last test began (the file's and its blocks'
     * `beforeAll`, the `afterAll` of a block that ended): called as a test begins, before its
     * frame. A test's own calls are tallied at its end and removed with its frame, so none is
     * counted twice.
     */
    hooksBefore(): Promise<void> {
      if (!coverage) return Promise.resolve()
      hooks = hooks.then(async () => {
        const { exchanges } = await (await source()).journal(seen || undefined)
        collector.take(exchanges)
        seen = Math.max(seen, ...exchanges.map((exchange) => exchange.id))
      })
      return hooks
    },
    async record(test: TestScope, passed: boolean, { tallied = true } = {}): Promise<void> {
      const { after, setup, ...named } = test
      root = test.root
      if (tallied) await tally(after)
      // In a CI job, a failed test's calls and refusals on the job's page.
      if (!passed) await summarizeFailedTest(await source(), { name: named.name, after })
      if (contract && passed) {
        await saveContract(
          await source(),
          { ...named, ...(after ? { after } : {}), ...(setup ? { setup } : {}) },
          contract,
          true,
        )
      }
    },
    tally,
    /** Counts what a passing `toReach` showed, for the insight the matchers ask. */
    checked: collector.checked,
    flush: () => collector.flush(),
  }
}
