import type { Case } from '../cases'
import { runCases, type CaseResult, type Target } from '../run'

/**
 * Replays contracts against a target: every step runs (a difference does not stop the
 * contract), each request is checked against strict mode's rules, a step refused where it was
 * expected to pass says what would have let it in (asked of the target's control plane), and a
 * step that needs the
 * control plane on a target without one skips the rest of its contract, with the reason.
 */
export function verifyContracts(target: Target, contracts: readonly Case[]): Promise<CaseResult[]> {
  return runCases(target, contracts, { allSteps: true, strict: true, counterfactuals: true })
}
