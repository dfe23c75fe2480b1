export {
  coverageReport,
  REFUSAL_CODES,
  type CoverageFlag,
  type CoverageReport,
  type EndpointCoverage,
} from './report'
export { readCoverageInput, type CoverageInput } from './read'
export {
  DIMENSIONS,
  emptyTally,
  mergeTallies,
  tallyChecks,
  tallyCoverage,
  type AbilityUse,
  type CoverageCell,
  type CoverageEntry,
  type CoverageTally,
  type CredentialKind,
  type PolicyCheck,
  type Dimension,
} from './tally'
export { COVERAGE_BODY_LIMIT, readCoverageRequest, type CoverageRequest } from './request'
