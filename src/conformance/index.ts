// The conformance run and contracts, as the `service-playground` command (src/cli) uses them.
// No top-level await and no `import.meta` below this file: the kit also ships it as CommonJS.
export { replayRecording, describeReplay, type ReplayResult, type Recording } from './replay'
export { readJournalFiles, MAX_JOURNAL_FILE_BYTES } from './journal-files'
export { parseCaseFile, readCaseFile, CaseFileError } from './cases'
export { loadCases, getCasesDir, setCasesDir } from './load-cases'
export type { Case, CaseFile, Step, CallStep, MintStep, Expect, Matcher, Format } from './cases'
export { runCase, runCases, type Target, type CaseResult, type StepResult } from './run'
export type { RunOptions, WireRequest, WireResponse, Difference } from './run'
export {
  baseUrlTarget,
  handleTarget,
  mswTarget,
  serveTarget,
  setServeCommand,
  SERVICE_NAME,
  type BaseUrlOptions,
} from './targets'
export { preflight, PreflightError } from './preflight'
export { junit, stepReport, table } from './report'
export { recordContract } from './contract/record'
export { RecordError, FORGED_TOKEN } from './contract/record-context'
export type { RecordContext, SecretInfo } from './contract/record-context'
export { formatContract, addToContract } from './contract/format'
export { loadContracts } from './contract/load'
export { verifyContracts } from './contract/verify'
