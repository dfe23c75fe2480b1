/**
 * The link code (`src/conformance/link/step-link.ts`), the runner a link replays with and the
 * throwaway account it replays on (answered in the page, decision 106), as one module the page loads through `import('./link-code')`: a chunk of its own, fetched only
 * when a link is opened or made.
 */
export {
  linkFaults,
  makeStepLink,
  readStepLink,
  stepLinkUrl,
  LinkError,
  LINK_GOAL_CHARS,
  type StepLink,
} from '../../conformance/link/step-link'
export { ENGINE_VERSION } from '../../conformance/link/engine-version'
export { replayStepLink, type StepDifference } from '../../conformance/link/replay-link'
export {
  fetchTarget,
  formatDifference,
  recordContract,
  verifyContracts,
  type Case,
  type CaseResult,
} from '../../conformance/browser'
export { labelOf } from '../../conformance/contract/answer'
export { throwawayFetch } from '../../msw/throwaway'
