import { openAccount } from '../../client/open-account'
import type { Case } from '../cases'
import { fetchTarget } from '../fetch-target'
import { PreflightError } from '../preflight'
import { runCase, runCases, type CaseResult, type RunOptions, type Target } from '../run'

const VERIFYING: RunOptions = { allSteps: true, strict: true, counterfactuals: true }

/**
 * Replays contracts against a target: every step runs (a difference does not stop the
 * contract), each request is checked against strict mode's rules, a step refused where it was
 * expected to pass says what would have let it in (asked of the target's control plane), and a
 * step that needs the control plane on a target without one skips the rest of its contract,
 * with the reason. Where the target has a control plane, its account is reset before each
 * contract.
 */
export function verifyContracts(target: Target, contracts: readonly Case[]): Promise<CaseResult[]> {
  return runCases(target, contracts, VERIFYING)
}

/** A `serve` that hosts accounts: its root URL and its own control token. */
export interface AccountHost {
  url: string
  controlToken: string
  serviceName: string
}

/**
 * Replays each contract in an account of its own on `host`, made for it (`POST /_accounts`)
 * and deleted after it, so that no account already there is reset or written to. A host that
 * will not make one is a `PreflightError` saying what to give instead.
 */
export async function verifyInNewAccounts(
  host: AccountHost,
  contracts: readonly Case[],
): Promise<CaseResult[]> {
  const results: CaseResult[] = []
  for (const contract of contracts) {
    const account = await openAccount(host).catch((error: unknown) => {
      throw new PreflightError(
        `verify runs each contract in an account of its own, and ${(error as Error).message.trim()}: give the URL and control token serve printed at start (a serve that hosts accounts), or --reset-account to run the contracts in the account at --base-url, erasing what it holds`,
      )
    })
    try {
      const target = fetchTarget({
        baseUrl: account.baseUrl,
        serviceName: host.serviceName,
        control: account.controlToken,
      })
      results.push(await runCase(target, contract, VERIFYING))
    } finally {
      await account.close()
    }
  }
  return results
}
