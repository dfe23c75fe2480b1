import type { TokenReport } from '../../engine'
import { formatDuration, formatTime } from './format'

/** What a token is now, in words: the engine's report, moved on to `now` on the virtual clock. */
export interface LiveStatus {
  state: 'usable' | 'expired' | 'dead' | 'invalid' | 'unknown'
  /** One short phrase: `usable`, `expired at …`, `dead because its secret rolled at …`. */
  headline: string
  /** Why, or what comes next. */
  detail?: string
}

/**
 * The live state of a token. The engine's report was read a moment ago; expiry and rolls are
 * also derived here from `now`, so the state flips on time without waiting for a refetch.
 */
export function liveStatus(report: TokenReport | undefined, now: number | undefined): LiveStatus {
  if (!report) return { state: 'unknown', headline: 'checking…' }
  const details = report.details
  if (!details || (report.state === 'invalid' && report.reason !== 'secret_rolled')) {
    return { state: 'invalid', headline: 'invalid', detail: invalidBecause(report) }
  }
  const rollsAt = details.kind === 'secret' ? details.expiresAt : (details.secretExpiresAt ?? null)
  const expiresAt = details.kind === 'authorization' ? details.expiresAt : null
  const rolled = report.reason === 'secret_rolled' || (rollsAt !== null && due(rollsAt, now))
  const expired =
    details.kind === 'authorization' &&
    (report.reason === 'expired' || (expiresAt !== null && due(expiresAt, now)))
  // The first cause in time names the state (decision 087): expired before its secret rolled
  // is expired, whatever became of the secret since.
  const expiredFirst =
    expired && (!rolled || rollsAt === null || expiresAt === null || expiresAt <= rollsAt)
  if (expiredFirst) {
    return {
      state: 'expired',
      headline: expiresAt === null ? 'expired' : `expired at ${formatTime(expiresAt)}`,
      detail: `Its expiry has passed on the virtual clock: calls with it answer 401.${
        rolled && rollsAt !== null
          ? ` Its secret ${details.secretId} was rolled after, at ${formatTime(rollsAt)}.`
          : ''
      }`,
    }
  }
  if (rolled && rollsAt !== null) {
    return details.kind === 'secret'
      ? {
          state: 'expired',
          headline: `expired: rolled at ${formatTime(rollsAt)}`,
          detail: `Secret ${details.secretId} was rolled; it stopped working then.`,
        }
      : {
          state: 'dead',
          headline: `dead because its secret rolled at ${formatTime(rollsAt)}`,
          detail: `Every authorization from secret ${details.secretId} died with it.`,
        }
  }
  const ends = [
    expiresAt === null
      ? 'never expires'
      : `expires ${now === undefined ? 'at' : `in ${formatDuration(expiresAt - now)}, at`} ${formatTime(expiresAt)}`,
    ...(rollsAt === null
      ? []
      : expiresAt !== null && expiresAt <= rollsAt
        ? [`its secret ${details.secretId} rolls later, at ${formatTime(rollsAt)}`]
        : [`its secret ${details.secretId} rolls at ${formatTime(rollsAt)}, and it dies then`]),
  ]
  return { state: 'usable', headline: 'usable', detail: `It ${ends.join('; ')}.` }
}

const due = (at: number, now: number | undefined) => now !== undefined && at <= now

function invalidBecause(report: TokenReport): string {
  switch (report.reason) {
    case 'bad_signature':
      return "Its signature does not verify: a character of it was changed, or another account (or this one before a reset) signed it. The engine answers 401 `authorization is invalid'."
    case 'unknown_token':
      return "No secret of this account has this key, and it is not a signed authorization. The engine answers 401 `authorization is invalid'."
    case 'secret_unknown':
      return `Its secret ${report.details?.secretId ?? ''} is not in this account any more (the account was reset or replaced).`
    default:
      return report.reason ?? 'The engine does not accept it.'
  }
}
