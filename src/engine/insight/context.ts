import type { Account } from '../account/account'
import { identify } from '../auth/credentials'
import { isTime, MAX_TIME_TEXT } from '../clock'
import { InvalidError } from '../errors'
import type { Registry } from '../packages'
import { checkGone } from '../errors'
import { yieldWhenDue, type Pause } from '../runtime/turns'
import type { EngineSettings } from '../settings'
import { credentialTrace } from '../trace'
import type { TokenSummary } from './types'

/** What reach, simulate and diff read: the same account, catalogue and settings calls use. */
export interface InsightContext {
  account: Account
  registry: Registry
  settings: EngineSettings
}

/**
 * How one insight request runs, as an endpoint call would: `pause` asked between its calls and
 * steps (its account's turns, on a server that hosts several; the event loop's otherwise), and
 * stopped (`ClientGoneError`) once `signal` says its client went away.
 */
export interface InsightRun {
  signal?: AbortSignal
  pause?: Pause
}

/** Between two steps of an insight request: stop if its client is gone, else take a turn. */
export function between(ctx: InsightContext, run: InsightRun): Promise<void> | undefined {
  checkGone(run.signal)
  return run.pause ? run.pause() : yieldWhenDue(ctx.settings.limits.sliceMs)
}

/** The moment asked about: `at` (Unix seconds) when given, the virtual clock's now otherwise. */
export async function momentOf(ctx: InsightContext, at: number | undefined): Promise<number> {
  if (at === undefined) return ctx.account.now()
  if (typeof at !== 'number' || !isTime(at)) {
    throw new InvalidError(`\`at' must be a time in Unix seconds, at most ${MAX_TIME_TEXT}`)
  }
  return at
}

/** What `token` is at `now`, by the same check every call makes of its bearer token. */
export async function identifyAt(ctx: InsightContext, token: string, now: number) {
  if (typeof token !== 'string') throw new InvalidError("`token' is required and must be a string")
  const signer = await ctx.account.signer()
  const identity =
    token.trim() === ''
      ? ({ state: 'missing' } as const)
      : await identify(token.trim(), ctx.settings.store, signer, now)
  const trace = credentialTrace(identity)
  const summary: TokenSummary = {
    ...trace,
    state:
      identity.state === 'usable' ? 'usable' : identity.state === 'expired' ? 'expired' : 'invalid',
  }
  return { identity, summary, signer }
}
