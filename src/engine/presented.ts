import { readBearer } from './auth/bearer'
import { identify, type Presented } from './auth/credentials'
import { nowSeconds } from './clock'
import type { OperatorView } from './operator/state'
import type { EngineParts, Exchange } from './pipeline'

/**
 * What the request's token is, read without admitting it: for a fault that matches by role,
 * and for the journal of a request answered before its token was read (a fault, a body too
 * large), so that it names the token as it was.
 */
export async function presented(
  { account, store, clock }: EngineParts,
  { call }: Exchange,
  view: OperatorView,
): Promise<Presented> {
  const bearer = readBearer(call.header('authorization'))
  if (bearer.state !== 'token') return { state: bearer.state }
  const synced = account.syncClock(view.clockOffset)
  if (synced) await synced
  return identify(bearer.token, store, await account.signer(), nowSeconds(clock))
}

/** The role a presented token has, as the journal names it. */
export const roleOf = (token: Presented): 'secret' | 'authorization' | 'none' | 'unknown' =>
  token.state === 'missing' || token.state === 'malformed'
    ? 'none'
    : ('details' in token && token.details?.kind) || 'unknown'
