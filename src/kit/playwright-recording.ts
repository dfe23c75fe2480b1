/**
 * What a Playwright test leaves behind at its end: its case in a contract file, its coverage,
 * a failed test's summary and step link; and the insight its `toReach` checks are tallied from.
 */
import { dirname, relative, sep } from 'node:path'
import type { TestInfo } from '@playwright/test'
import { tallyChecks, tallyCoverage, type PolicyCheck } from '../engine/insight'
import { saveContract, type ContractSource, type TestContract } from './contract'
import { addCoverage } from './coverage-collect'
import type { ServiceFixture, ServiceFixtureOptions } from './playwright-options'
import { registerInsight } from './reach-matchers'
import type { RemoteService } from './remote'
import { testLink } from './test-link'
import { summarizeFailedTest } from './test-summary'

/** The case a test records: named by its file (from the test directory), describe blocks and title. */
export function testOf(testInfo: TestInfo): TestContract {
  const file = relative(testInfo.project.testDir, testInfo.file).split(sep).join('/')
  const configFile = testInfo.config.configFile
  return {
    name: [file, ...testInfo.titlePath.slice(1)].join(' › '),
    root: configFile ? dirname(configFile) : testInfo.config.rootDir,
  }
}

/** The journal and secrets of a service reached over its wire; `baseUrl` is where it saw requests. */
export const contractSource = (remote: RemoteService, baseUrl: string): ContractSource => ({
  baseUrl,
  serviceName: remote.serviceName,
  journal: (after) =>
    remote.control(after === undefined ? 'exchanges' : `exchanges?after=${after}`),
  secrets: () => remote.listSecrets(),
})

/**
 * The fixture's value and what to do at the test's end: the contract option's file, saved
 * when the test passed (the journal held only this test: the service is new or was reset).
 */
export function withContract(
  remote: RemoteService,
  source: ContractSource,
  testInfo: TestInfo,
  after = 0,
): ServiceFixture {
  const test = { ...testOf(testInfo), ...(after ? { after } : {}) }
  return {
    ...remote,
    contract: { save: async (path) => (await saveContract(source, test, path))! },
  }
}

/** At the test's end: its coverage, a failure's summary and link, a passing test's contract case. */
export async function saveAtEnd(
  source: ContractSource,
  testInfo: TestInfo,
  { contract: path, coverage }: ServiceFixtureOptions,
  checks: readonly PolicyCheck[],
  after = 0,
): Promise<void> {
  if (coverage) {
    // This test's exchanges alone: those after its checkpoint, or all of a new service's; and
    // what its passing `toReach` showed.
    const { exchanges } = await source.journal(after || undefined)
    const tally = tallyCoverage(exchanges, tallyChecks(checks))
    await addCoverage(coverage, testOf(testInfo).root, tally)
  }
  if (testInfo.status !== testInfo.expectedStatus) {
    // In a CI job, a failed test's calls and refusals on the job's page.
    await summarizeFailedTest(source, { name: testOf(testInfo).name, after })
  }
  if (path && testInfo.status === 'passed' && testInfo.expectedStatus === 'passed') {
    await saveContract(source, { ...testOf(testInfo), ...(after ? { after } : {}) }, path, true)
  }
  if (testInfo.status !== testInfo.expectedStatus && testInfo.status !== 'skipped') {
    // A failure gets its last call on the service as a link: reporters print a text
    // attachment under the error, and the annotation reaches JUnit's properties.
    const link = await testLink(source, testOf(testInfo).name)
    if (link?.url) testInfo.annotations.push({ type: 'step link', description: link.url })
    if (link) await testInfo.attach('step link', { body: link.text, contentType: 'text/plain' })
  }
}

/**
 * The service's insight, for `toReach` and `toBeNarrowerThan`, while the test runs; what a
 * passing `toReach` showed goes into `checks`, for the test's coverage.
 */
export const insightOf = (remote: RemoteService, checks: PolicyCheck[]) =>
  registerInsight({
    reach: remote.reach,
    simulate: remote.simulate,
    diff: remote.diff,
    leastPrivilege: remote.leastPrivilege,
    checked: (check) => checks.push(check),
  })
