import type { Presented } from '../auth/credentials'
import type { Principal } from '../auth/principal'
import type { CallRequest } from '../lang/tree'
import { credentialTrace, type CallTrace } from '../trace'
import { checked, holding, mayMeetMore, whileAlive } from './checked'
import type { InsightRun } from './context'
import { withCounterfactual, type Counterfactual } from '../auth/counterfactual'
import { quietRun, type QuietParts } from './quiet-run'

/**
 * The counterfactual of a refused token, checked (decision 087): for a token that verified but
 * is dead (expired, its secret rolled or gone), the call is run again as it would have been
 * evaluated while the token worked, and what would still have stopped it is named too.
 * `undefined` when there is nothing to check (the token never verified) or the token's own
 * counterfactual stands alone. `request` reads the call's body; a body that does not parse
 * would have failed on its own, and leaves the token's change alone. The runs take turns as
 * `run` says.
 */
export async function checkedTokenRefusal(
  parts: QuietParts,
  presented: Presented,
  endpoint: string,
  request: () => CallRequest,
  now: number,
  run: InsightRun = {},
): Promise<Counterfactual | undefined> {
  if (presented.state === 'missing' || presented.state === 'malformed') return undefined
  const alive = whileAlive(presented, now)
  const first = credentialTrace(presented).counterfactual
  if (!alive || !first) return undefined
  let parsed: CallRequest
  try {
    parsed = request()
  } catch {
    return undefined
  }
  const made = await checked(first, alive.principal, alive.at, (principal, at) =>
    quietRun(parts, principal, endpoint, parsed, at, run),
  )
  return made === first ? undefined : made
}

/**
 * For a call refused by an ability (`missing_ability`, `outside_limit`) that might meet another
 * refusal once let in (`mayMeetMore`): its counterfactual checked by running the call again with
 * the change made, and the refused call's trace and `error` given the checked one. A lone call
 * refused at its own ability is left as it is. The runs take turns as `run` says.
 */
export async function checkCallRefusal(
  parts: QuietParts,
  principal: Principal,
  endpoint: string,
  request: CallRequest,
  { calls, error }: { calls: readonly CallTrace[]; error: unknown },
  now: number,
  run: InsightRun = {},
): Promise<void> {
  const refused = calls.find((call) => call.decision === 'refused' && call.counterfactual)
  if (!refused || !mayMeetMore(endpoint, request, refused)) return
  const first = refused.counterfactual!
  const changed = holding(principal, first)
  if (!changed) return
  const made = await checked(first, changed, now, (p, at) =>
    quietRun(parts, p, endpoint, request, at, run),
  )
  if (made === first) return
  refused.counterfactual = made
  if (typeof error === 'object' && error !== null) withCounterfactual(error, made)
}
