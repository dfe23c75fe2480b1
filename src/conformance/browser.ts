/**
 * Contracts in the browser: what the playground's exchange log calls to save its exchanges as a
 * contract and to open one and replay it in the page. Nothing below this file reaches Node
 * (no `node:*`, no `Buffer`, no `process`): `src/conformance/browser.test.ts` bundles it for the
 * browser and runs it with only a browser's globals, and `e2e/contracts.spec.ts` runs it in
 * the playground's page.
 *
 * - Save: `recordContract(exchanges, { name, serviceName, baseUrl, secrets })` with the records
 *   of `GET <baseUrl>/_account/exchanges` (the chosen ones) and `GET <baseUrl>/_account/secrets`,
 *   then `formatContract(file)` for the download's text (`addToContract` to add it to an open
 *   file, by case name).
 * - Open: `readCaseFile(name, text)` checks a file and returns it; `parseCaseFile(name, text)`
 *   gives its cases to run.
 * - Import a HAR: `readHar(name, text)` checks it, `importHar(name, har, { name, baseUrl,
 *   serviceName })` makes the contract `import-har` writes.
 * - Copy as test: `testCode(exchanges, { name, baseUrl, serviceName, secrets, runner, target })`
 *   is a Vitest, Jest or Playwright file that replays the exchanges through `fetch` with the kit,
 *   in process or over `serve`, and asserts their answers.
 * - Replay: `verifyContracts(fetchTarget({ baseUrl, serviceName, control: true }), cases)`, each
 *   result with every step `passed`, `failed` (its differences, request and answer) or
 *   `skipped`; `formatDifference` and `stepReport` put them in words.
 */
export { toBase64, fromBase64, base64ToText } from '../client/wire'
export { parseCaseFile, readCaseFile, CaseFileError } from './cases'
export type { Case, CaseFile, Step, CallStep, MintStep, Expect, Matcher, Format } from './cases'
export { recordContract } from './contract/record'
export { RecordError, FORGED_TOKEN } from './contract/record-context'
export type { RecordContext, SecretInfo } from './contract/record-context'
export { formatContract, addToContract } from './contract/format'
export { verifyContracts } from './contract/verify'
export { fetchTarget, ControlPlaneError, type FetchTargetOptions } from './fetch-target'
export { runCase, runCases, formatDifference, readableBody } from './run'
export type {
  Target,
  CaseResult,
  StepResult,
  RunOptions,
  WireRequest,
  WireResponse,
  Difference,
} from './run'
export { exchangeText, stepReport } from './report'
export { importHar } from './contract/har'
export { HarError, MAX_HAR_BYTES, readHar } from './contract/har-file'
export type { HarCounts, HarImport } from './contract/har'
export { testCode, TestCodeError, type TestCodeOptions } from './contract/test-code'
export {
  TEST_RUNNERS,
  TEST_TARGETS,
  testFileName,
  type TestRunner,
  type TestTarget,
} from './contract/test-shapes'
