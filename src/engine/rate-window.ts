import { LimitedError } from './errors'
import type { RateLimit } from './settings'

/** The rate limit's current window: when it began (Unix seconds, virtual) and its calls. */
export interface RateWindow {
  start: number
  count: number
}

/**
 * The account's rate limit: a fixed window counting every endpoint call, inner calls of
 * compositions and procedures included (decision 006), while the limit is enforced. While the
 * window is full a request is refused once its token is read (after its body: 413 comes first,
 * as decision 001 orders the checks), before its call is parsed or run; a call that crosses
 * the limit is refused, so a composition stops there. The window itself lives with the
 * operator's other controls (`OperatorState.rate`); these are the rules every keeper of it
 * follows.
 */

/** No window yet: the first call counted begins one. */
export const NO_WINDOW: RateWindow = { start: Number.NEGATIVE_INFINITY, count: 0 }

/** The window at `now`: `current`, or a new, empty one once `current` is `windowSeconds` old. */
export function windowAt(current: RateWindow, now: number, windowSeconds: number): RateWindow {
  return now - current.start >= windowSeconds ? { start: now, count: 0 } : current
}

/** The last rate limit's header value: the limit rarely changes, and every answer says it. */
let said: { limit: number; windowSeconds: number; value: string } | undefined

export function rateHeader({ limit, windowSeconds }: RateLimit): Record<string, string> {
  if (said?.limit !== limit || said.windowSeconds !== windowSeconds) {
    said = { limit, windowSeconds, value: `${limit};window=${windowSeconds}` }
  }
  return { 'x-rate-limit': said.value }
}

function refusal(rateLimit: RateLimit, counted: RateWindow, now: number): LimitedError {
  const { limit, windowSeconds } = rateLimit
  const retry = Math.max(1, Math.ceil(counted.start + windowSeconds - now))
  return new LimitedError(
    `rate limit of ${limit} calls per ${windowSeconds}s exceeded; retry in ${retry}s`,
    { ...rateHeader(rateLimit), 'retry-after': String(retry) },
  )
}

/** Refuses a request while the window is full: once its token is read, before its call runs. */
export function checkWindow(rateLimit: RateLimit, held: RateWindow, now: number): void {
  if (!rateLimit.enforce) return
  const current = windowAt(held, now, rateLimit.windowSeconds)
  if (current.count >= rateLimit.limit) throw refusal(rateLimit, current, now)
}

/** Refuses the call just counted into `counted` when it went past the limit. */
export function checkCounted(rateLimit: RateLimit, counted: RateWindow, now: number): void {
  if (rateLimit.enforce && counted.count > rateLimit.limit) throw refusal(rateLimit, counted, now)
}
